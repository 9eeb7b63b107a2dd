// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bufio"
	"errors"
	"os"
	"strings"
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
	var locks []*os.File
	for _, root := range order {
		locks = append(locks, lockWorkspace(root))
	}
	var tmp string
	if len(ph) > 0 && locks[0] != nil {
		mounts, tmp = dressPlaceholders(r.Command, mounts, ph)
	}
	args := append([]string{b.Path}, RingBwrapArgs(mounts, argv)...)
	p := &Prepared{Path: b.Path, Args: args, Placeholders: ph}
	p.release = func() {
		for i, root := range order {
			if locks[i] != nil {
				removePlaceholders(locks[i], roots[root])
			}
		}
		if tmp != "" {
			os.Remove(tmp)
		}
	}
	return p, nil
}

// HostShells returns the real shell binaries of this host: [ShellDirs]
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
	return ShellBinaries(OSFS{}, ShellDirs, extra)
}
