// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/git"
)

// PrepareRing returns the bwrap command line that starts argv (the agent)
// inside the ring r ([RingLayout] over the host filesystem). Like
// [Prepare] it holds a shared lock on the workspace (and on every state
// directory with guard placeholders) until Done, and the last sandbox of
// the workspace removes the placeholders: the ring and the session's
// worker protect the same paths.
func PrepareRing(b Backend, r RingSpec, argv []string) (*Prepared, error) {
	if b.Name == BackendLandlock {
		return prepareRingLandlock(r, argv)
	}
	if b.Path == "" {
		return nil, &SetupError{Op: "backend", Err: errors.New("no bwrap path (call Detect first)")}
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, &SetupError{Op: "argv", Err: errors.New("no program to run")}
	}
	DetectHost(&r.Command)
	if err := ensureCacheLayers(&r.Command); err != nil {
		return nil, &SetupError{Op: "cache layers", Err: err}
	}
	mounts, err := RingLayout(r, OSFS{})
	if err != nil {
		return nil, &SetupError{Op: "ring layout", Err: err}
	}
	mounts = dropUnneededPlaceholders(mounts)
	ph := Placeholders(mounts)
	guarded := Guarded(mounts)
	order, roots, locks, swept := lockRingRoots(r, ph, guarded)
	if len(ph) > 0 && locks[0] == nil {
		// Without a private directory a placeholder file is /dev/null,
		// and git dies on an unreadable commondir (as in prepare).
		mounts = slices.DeleteFunc(mounts, func(m Mount) bool {
			return m.Kind == PlaceholderFile && placeholderContent(m.Dst) == ".\n"
		})
		ph = Placeholders(mounts)
	}
	var tmp, tmpl string
	if len(ph) > 0 && locks[0] != nil {
		for i, root := range order {
			if locks[i] != nil {
				createPlaceholders(placeholderMountsIn(mounts, roots[root]), locks[i].record)
			}
		}
		mounts, tmp = dressPlaceholders(r.Command, mounts, ph)
		mounts, tmpl = templateExclude(r.Command, mounts, ph)
	}
	// Inside, the confine step (no_new_privs, Landlock scopes, the
	// seccomp filter) runs before the agent, as for every command.
	args := append([]string{b.Path}, RingBwrapArgs(mounts, confine.Argv(r.Exe, argv))...)
	record := ""
	if i := slices.Index(order, r.Command.Workspace); i >= 0 && locks[i] != nil {
		record = locks[i].record
	}
	p := &Prepared{Path: b.Path, Args: args, Placeholders: ph, Mounts: mounts, quarantined: swept}
	p.release = func() {
		for _, l := range locks {
			if l != nil {
				p.quarantined = append(p.quarantined, l.release()...)
			}
		}
		for _, t := range []string{tmp, tmpl} {
			if t != "" {
				os.Remove(t)
			}
		}
	}
	g, err := startGuarding(r.Command, mounts, record)
	if err != nil {
		p.Done()
		return nil, &SetupError{Op: "guard", Err: err}
	}
	release := p.release
	p.release = func() {
		p.quarantined = append(p.quarantined, g.Stop()...)
		release()
	}
	return p, nil
}

// lockRingRoots takes one lock per root that holds placeholders or
// guarded paths: the workspace, and each state directory (another
// session's ring may use the same ~/.claude placeholders as mount
// points). It returns the roots in order, their placeholders, the locks
// (nil where none could be had) and what their crash sweeps moved.
func lockRingRoots(r RingSpec, ph []string, guarded []Mount) ([]string, map[string][]string, []*wsLock, []Quarantined) {
	roots := map[string][]string{}
	var order []string
	for _, p := range ph {
		root := r.Command.Workspace
		if !hostpath.Within(p, root) {
			for _, g := range r.Write {
				if hostpath.Within(p, g) {
					root = g
					break
				}
			}
		}
		if _, ok := roots[root]; !ok {
			order = append(order, root)
		}
		roots[root] = append(roots[root], p)
	}
	if len(guarded) > 0 && !slices.Contains(order, r.Command.Workspace) {
		order = append(order, r.Command.Workspace)
	}
	locks := make([]*wsLock, len(order))
	var swept []Quarantined
	for i, root := range order {
		if locks[i] = lockWorkspace(root); locks[i] != nil {
			swept = append(swept, locks[i].swept...)
		}
	}
	return order, roots, locks, swept
}

// HostShells returns the real shell binaries of this host: [shellDirs]
// and the entries of /etc/shells, resolved.
func HostShells() []string {
	var extra []string
	if f, err := os.Open("/etc/shells"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			l := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(l, "/") {
				extra = append(extra, l)
			}
		}
		f.Close()
	}
	return ShellBinaries(OSFS{}, shellDirs, extra)
}

// HostGits returns every git of this host that the ring may show: the
// binaries named git in [shellDirs] and pathDirs (the agent's PATH),
// those in git's exec path as each system git reports it (`git
// --exec-path`: /usr/lib/git-core/git), and every file in those
// directories that is git under another name ([git.Copies]:
// git-upload-pack, ...). Only a root-owned git in a system directory is
// run to ask; a git elsewhere on PATH is bound, never run (escape class
// 59, docs/security-model.md).
func HostGits(pathDirs []string) []string {
	dirs := slices.Clone(shellDirs)
	for _, d := range pathDirs {
		if filepath.IsAbs(d) && !slices.Contains(dirs, filepath.Clean(d)) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	var execDirs []string
	for _, g := range GitBinaries(OSFS{}, dirs) {
		if !systemOwned(g) {
			continue
		}
		if p := git.ExecPath(g); p != "" && !slices.Contains(dirs, p) && !slices.Contains(execDirs, p) {
			execDirs = append(execDirs, p)
		}
	}
	dirs = append(dirs, execDirs...)
	gits := GitBinaries(OSFS{}, dirs)
	out := append(gits, git.Copies(gits, dirs)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// systemOwned reports whether p is a root-owned file in a system
// directory ([shellDirs]), which no user of the ring can have planted.
func systemOwned(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid != 0 {
		return false
	}
	for _, d := range shellDirs {
		if r, err := filepath.EvalSymlinks(d); err == nil && hostpath.Below(p, r) {
			return true
		}
	}
	return false
}

// placeholderMountsIn returns the placeholder mounts of ms whose paths
// are in paths (one lock root's share).
func placeholderMountsIn(ms []Mount, paths []string) []Mount {
	var out []Mount
	for _, m := range ms {
		if (m.Kind == PlaceholderDir || m.Kind == PlaceholderFile) && slices.Contains(paths, m.Dst) {
			out = append(out, m)
		}
	}
	return out
}
