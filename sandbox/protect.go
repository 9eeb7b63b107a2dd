// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// gitDirs is what git needs outside the workspace when the workspace is a
// linked worktree (`git worktree add`): its .git is a file naming a
// per-worktree directory inside the main repository's common directory.
type gitDirs struct {
	// Common is the main repository's git directory, mounted read-only
	// so that its config and hooks stay out of reach (classes 9, 10).
	Common string
	// Write lists the parts git writes for commits, branches and
	// fetches: the per-worktree directory, objects, refs, logs,
	// packed-refs. Missing ones are skipped.
	Write []string
	// Protect lists files inside Write that stay read-only: the
	// per-worktree commondir, which would otherwise redirect git to a
	// config of the agent's choosing.
	Protect []string
	// Placeholders lists the control files missing in those directories
	// (commondir, config.worktree, hooks, ...), which get read-only
	// placeholders as in the workspace.
	Placeholders []Protected
}

func (g gitDirs) paths() []string {
	var out []string
	if g.Common != "" {
		out = append(out, g.Common)
	}
	out = append(out, g.Write...)
	for _, p := range g.Placeholders {
		out = append(out, p.Path)
	}
	return append(out, g.Protect...)
}

// protectMounts returns the mounts that keep s.Protect read-only inside a
// writable workspace, in two groups: first every existing directory
// between the workspace and a protected path is bound onto itself, so
// that it is a mount point that cannot be renamed away (`mv .git .g &&
// mkdir -p .git/hooks`, escape class 12); then each protected path is
// bound read-only onto itself, or, when it (or an ancestor) does not
// exist yet, an empty read-only placeholder is mounted at the first
// missing component (class 13). A protected path reached through a
// symlink is protected at the link's target when that lies in the
// workspace; a path below a file cannot exist and needs nothing.
func protectMounts(s Spec, fsys FS) ([]Mount, error) {
	degraded, _ := Degraded(s.Workspace, s.Home)
	p := &protector{ws: s.Workspace, fsys: fsys, degraded: degraded, seen: map[string]bool{}}
	queue := slices.Clone(s.Protect)
	for n := 0; len(queue) > 0; n++ {
		if n > 256 {
			return nil, fmt.Errorf("sandbox layout: protect: too many symbolic links")
		}
		pr := queue[0]
		queue = queue[1:]
		next, err := p.walk(pr)
		if err != nil {
			return nil, err
		}
		if next != nil {
			queue = append(queue, *next)
		}
	}
	// Shallow pins first: a deeper pin inside a later, shallower bind
	// would be hidden by it.
	slices.SortStableFunc(p.pins, func(a, b Mount) int {
		return strings.Count(a.Dst, "/") - strings.Count(b.Dst, "/")
	})
	return append(p.pins, p.prot...), nil
}

// protector collects protectMounts' two groups of mounts, each
// destination once.
type protector struct {
	ws         string // the workspace
	fsys       FS
	degraded   bool // a workspace of / or of the home directory
	pins, prot []Mount
	seen       map[string]bool
}

// protect pins the ancestors (directories between the workspace and m)
// onto themselves and adds m to the protecting mounts.
func (p *protector) protect(ancestors []string, m Mount) {
	for _, a := range ancestors {
		p.add(&p.pins, Mount{Kind: Bind, Src: a, Dst: a})
	}
	p.add(&p.prot, m)
}

func (p *protector) add(list *[]Mount, m Mount) {
	if !p.seen[m.Dst] {
		p.seen[m.Dst] = true
		*list = append(*list, m)
	}
}

// walk goes down the components of pr from the workspace and protects
// it. When a component is a symlink it returns the path to protect
// instead, through the link's target, or nil when that leaves the
// workspace.
func (p *protector) walk(pr Protected) (*Protected, error) {
	if pr.Path == p.ws || !Within(pr.Path, p.ws) {
		return nil, nil
	}
	rel := strings.TrimPrefix(pr.Path, p.ws+"/")
	if p.ws == "/" {
		rel = strings.TrimPrefix(pr.Path, "/")
	}
	comps := strings.Split(rel, "/")
	cur := p.ws
	var ancestors []string
	for i, c := range comps {
		cur = path.Join(cur, c)
		last := i == len(comps)-1
		fi, err := p.fsys.Lstat(cur)
		if err != nil {
			if !missing(err) {
				return nil, fmt.Errorf("sandbox layout: protect %s: %w", pr.Path, err)
			}
			p.placeholder(pr, c, cur, last, ancestors)
			return nil, nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return p.follow(pr, cur, comps[i+1:])
		}
		if last {
			p.protect(ancestors, Mount{Kind: ROBind, Src: cur, Dst: cur})
			return nil, nil
		}
		if !fi.IsDir() {
			// Nothing can exist below a file.
			return nil, nil
		}
		ancestors = append(ancestors, cur)
	}
	return nil, nil
}

// placeholder stands a read-only placeholder in at cur, the first
// missing component (c) of pr.
func (p *protector) placeholder(pr Protected, c, cur string, last bool, ancestors []string) {
	if p.degraded {
		// A workspace of / or of the home directory: never create files
		// there (documented: only existing protected paths are protected
		// then).
		return
	}
	if c == ".git" && !last {
		// Not a git repository: an empty .git would make git, go build
		// and every VCS-aware tool fail. What `git init` creates inside
		// is the agent's (documented).
		return
	}
	kind := PlaceholderDir
	if last && !pr.Dir {
		kind = PlaceholderFile
	}
	p.protect(ancestors, Mount{Kind: kind, Dst: cur})
}

// follow returns the path that protecting pr through the symlink at cur
// means (rest are the components after it), or nil when it lies outside
// the workspace: what the link points at is what a write through it
// changes.
func (p *protector) follow(pr Protected, cur string, rest []string) (*Protected, error) {
	target, err := realPath(p.fsys, path.Dir(cur))
	if err != nil {
		return nil, nil
	}
	link, err := p.fsys.Readlink(cur)
	if err != nil {
		return nil, fmt.Errorf("sandbox layout: protect %s: %w", pr.Path, err)
	}
	if !path.IsAbs(link) {
		link = path.Join(target, link)
	}
	next := path.Join(append([]string{link}, rest...)...)
	if Within(next, p.ws) && next != p.ws {
		return &Protected{Path: next, Dir: pr.Dir}, nil
	}
	return nil, nil
}

// Placeholders returns the host paths of the placeholders in ms: bwrap
// creates them (empty) in the workspace as mount points.
func Placeholders(ms []Mount) []string {
	var out []string
	for _, m := range ms {
		if m.Kind == PlaceholderDir || m.Kind == PlaceholderFile {
			out = append(out, m.Dst)
		}
	}
	return out
}
