// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
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
// missing component (class 13). A protected path that is, or lies
// below, a symbolic link in the workspace is a [*LinkError] (class 60);
// a path below a file cannot exist and needs nothing.
//
// In the workspace (guard set) a missing protected path outside every
// git directory gets a [Guard] instead of a placeholder: a placeholder
// is a name in the host's directory (a bind needs one), so npm pack,
// tar, zip and the rest would pack it (#31; docs/limits.md, "Protected
// paths that do not exist"). Placeholders stay inside git directories
// (the host's git reads them on every status) and for the home's
// start-up files of a degraded workspace.
func protectMounts(s Spec, fsys FS) ([]Mount, error) {
	return protectMountsIn(s, fsys, true)
}

// protectMountsIn is [protectMounts]; guard false keeps placeholders
// for every missing path (the agent ring's state directories).
func protectMountsIn(s Spec, fsys FS, guard bool) ([]Mount, error) {
	degraded, _ := Degraded(s.Workspace, s.Home)
	p := &protector{ws: s.Workspace, fsys: fsys, degraded: degraded, guard: guard, seen: map[string]bool{}}
	for _, pr := range s.Protect {
		if err := p.walk(pr); err != nil {
			return nil, err
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
	guard      bool // guard missing paths outside git directories
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
// it, or refuses a symbolic link on the way.
func (p *protector) walk(pr Protected) error {
	if pr.Path == p.ws || !hostpath.Within(pr.Path, p.ws) {
		return nil
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
				return fmt.Errorf("sandbox layout: protect %s: %w", pr.Path, err)
			}
			p.placeholder(pr, c, cur, last, ancestors)
			return nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return p.linkError(pr, cur)
		}
		if last {
			p.protect(ancestors, Mount{Kind: ROBind, Src: cur, Dst: cur})
			return nil
		}
		if !fi.IsDir() {
			// Nothing can exist below a file.
			return nil
		}
		ancestors = append(ancestors, cur)
	}
	return nil
}

// placeholder stands a read-only placeholder in at cur, the first
// missing component (c) of pr.
func (p *protector) placeholder(pr Protected, c, cur string, last bool, ancestors []string) {
	if p.degraded && !pr.Home {
		// A workspace of / or of the home directory: create nothing there
		// but the placeholders of the home's start-up files (documented:
		// only existing protected paths are protected otherwise).
		return
	}
	if c == ".git" && !last {
		// Not a git repository: an empty .git would make git, go build
		// and every VCS-aware tool fail. What `git init` creates inside
		// is the agent's (documented).
		return
	}
	if p.guard && !pr.Home && !inGitDir(p.ws, cur) {
		p.add(&p.prot, Mount{Kind: Guard, Src: p.ws, Dst: pr.Path})
		return
	}
	kind := PlaceholderDir
	if last && !pr.Dir {
		kind = PlaceholderFile
	}
	p.protect(ancestors, Mount{Kind: kind, Dst: cur})
}

// inGitDir reports whether p lies in a .git directory below ws.
func inGitDir(ws, p string) bool {
	rel := strings.TrimPrefix(p, strings.TrimSuffix(ws, "/")+"/")
	return slices.Contains(strings.Split(rel, "/"), ".git")
}

// Guarded returns the protected paths of ms kept by the launcher's guard
// ([Guard]) rather than a mount.
func Guarded(ms []Mount) []Mount {
	var out []Mount
	for _, m := range ms {
		if m.Kind == Guard {
			out = append(out, m)
		}
	}
	return out
}

// LinkError reports a protected path that is, or lies below, a
// symbolic link inside the workspace. A mount cannot pin a link (bwrap
// follows it to its target), and the link's directory stays writable, so
// a command could remove the link and put a directory of its own at its
// name, which the host then runs (`.git/hooks`, `.claude`; escape class
// 60): the sandbox refuses to start instead (docs/confinement.md,
// "Protected paths").
type LinkError struct {
	Protected string // the protected path, relative to the workspace
	Link      string // the link, relative to the workspace
	Target    string // what the link points at, as written
}

// Error says which link, why it is refused and the ways out.
func (e *LinkError) Error() string {
	hint := ""
	if strings.HasSuffix(e.Protected, ".git/hooks") {
		hint = " (for git hooks: git config core.hooksPath DIR)"
	}
	return fmt.Sprintf("protected path %s: %s is a symbolic link (to %s), which a command could replace with a directory of its own "+
		"that the host then runs; replace the link with what it points at%s, or drop %s with sandbox.unprotect in your own config",
		esc.Printable(e.Protected), esc.Printable(e.Link), esc.Printable(e.Target), hint, esc.Printable(e.Protected))
}

// linkError returns the refusal for the symlink at cur on the way to pr.
func (p *protector) linkError(pr Protected, cur string) error {
	target, err := p.fsys.Readlink(cur)
	if err != nil {
		return fmt.Errorf("sandbox layout: protect %s: %w", pr.Path, err)
	}
	rel := func(q string) string {
		if r, ok := strings.CutPrefix(q, strings.TrimSuffix(p.ws, "/")+"/"); ok {
			return r
		}
		return q
	}
	return &LinkError{Protected: rel(pr.Path), Link: rel(cur), Target: target}
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
