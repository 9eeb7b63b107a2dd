// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bufio"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// PrepareRing returns the bwrap command line that starts argv (the agent)
// inside the ring r ([RingLayout] over the host filesystem). Like
// [Prepare] it holds a shared lock on the workspace (and on every state
// directory with guard placeholders) until Done, and the last sandbox of
// the workspace removes the placeholders: the ring and the session's
// worker protect the same paths.
func PrepareRing(b Backend, r RingSpec, argv []string) (*Prepared, error) {
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
	// One lock per root that holds placeholders: the workspace, and each
	// state directory (another session's ring may use the same
	// ~/.claude placeholders as mount points).
	roots := map[string][]string{}
	var order []string
	for _, p := range ph {
		root := r.Command.Workspace
		if !Within(p, root) {
			for _, g := range r.Write {
				if Within(p, g) {
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
	locks := make([]*wsLock, len(order))
	for i, root := range order {
		locks[i] = lockWorkspace(root)
	}
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
	p := &Prepared{Path: b.Path, Args: args, Placeholders: ph, Mounts: mounts}
	p.release = func() {
		for _, l := range locks {
			if l != nil {
				l.release()
			}
		}
		for _, t := range []string{tmp, tmpl} {
			if t != "" {
				os.Remove(t)
			}
		}
	}
	return p, nil
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

// HostGits returns the real git binaries of this host, in [shellDirs].
func HostGits() []string { return GitBinaries(OSFS{}, shellDirs) }

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
