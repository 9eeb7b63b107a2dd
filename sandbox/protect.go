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

// GitDirs is what git needs outside the workspace when the workspace is a
// linked worktree (`git worktree add`): its .git is a file naming a
// per-worktree directory inside the main repository's common directory.
type GitDirs struct {
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

func (g GitDirs) paths() []string {
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
	var pins, prot []Mount
	seen := map[string]bool{}
	add := func(list *[]Mount, m Mount) {
		if !seen[m.Dst] {
			seen[m.Dst] = true
			*list = append(*list, m)
		}
	}
	degraded, _ := Degraded(s.Workspace, s.Home)
	queue := slices.Clone(s.Protect)
	for n := 0; len(queue) > 0; n++ {
		if n > 256 {
			return nil, fmt.Errorf("sandbox layout: protect: too many symbolic links")
		}
		pr := queue[0]
		queue = queue[1:]
		if pr.Path == s.Workspace || !Within(pr.Path, s.Workspace) {
			continue
		}
		rel := strings.TrimPrefix(pr.Path, s.Workspace+"/")
		if s.Workspace == "/" {
			rel = strings.TrimPrefix(pr.Path, "/")
		}
		comps := strings.Split(rel, "/")
		cur := s.Workspace
		var ancestors []string
		for i, c := range comps {
			cur = path.Join(cur, c)
			last := i == len(comps)-1
			fi, err := fsys.Lstat(cur)
			if err != nil {
				if !missing(err) {
					return nil, fmt.Errorf("sandbox layout: protect %s: %w", pr.Path, err)
				}
				if degraded {
					// A workspace of / or of the home directory: never
					// create files there (documented: only existing
					// protected paths are protected then).
					break
				}
				if c == ".git" && !last {
					// Not a git repository: an empty .git would make
					// git, go build and every VCS-aware tool fail. What
					// `git init` creates inside is the agent's (documented).
					break
				}
				kind := PlaceholderDir
				if last && !pr.Dir {
					kind = PlaceholderFile
				}
				for _, a := range ancestors {
					add(&pins, Mount{Kind: Bind, Src: a, Dst: a})
				}
				add(&prot, Mount{Kind: kind, Dst: cur})
				break
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				// Follow the link: what it points at is what a write
				// through it changes.
				target, err := realPath(fsys, path.Dir(cur))
				if err != nil {
					break
				}
				link, err := fsys.Readlink(cur)
				if err != nil {
					return nil, fmt.Errorf("sandbox layout: protect %s: %w", pr.Path, err)
				}
				if !path.IsAbs(link) {
					link = path.Join(target, link)
				}
				next := path.Join(append([]string{link}, comps[i+1:]...)...)
				if Within(next, s.Workspace) && next != s.Workspace {
					queue = append(queue, Protected{Path: next, Dir: pr.Dir})
				}
				break
			}
			if last {
				for _, a := range ancestors {
					add(&pins, Mount{Kind: Bind, Src: a, Dst: a})
				}
				add(&prot, Mount{Kind: ROBind, Src: cur, Dst: cur})
				break
			}
			if !fi.IsDir() {
				// Nothing can exist below a file.
				break
			}
			ancestors = append(ancestors, cur)
		}
	}
	// Shallow pins first: a deeper pin inside a later, shallower bind
	// would be hidden by it.
	slices.SortStableFunc(pins, func(a, b Mount) int {
		return strings.Count(a.Dst, "/") - strings.Count(b.Dst, "/")
	})
	return append(pins, prot...), nil
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
