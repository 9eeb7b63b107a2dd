// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"path/filepath"
	"strings"
)

// Root in the sandbox has no capabilities (the confine step drops them
// all, docs/confinement.md): unlike root on the host it cannot remove
// the entries of a directory without write permission, so `rm -rf` of
// a read-only tree it owns (a Go module cache, an extracted archive)
// fails with "Permission denied" where bare root succeeds (issue #31).
// Capabilities stay dropped (CAP_DAC_OVERRIDE would open every file of
// the sandbox to root); the line says what to run instead.

// rootLine explains a recursive rm run as root, or returns "".
func (c Context) rootLine(argv []string) string {
	if !c.Root || len(argv) < 2 || filepath.Base(argv[0]) != "rm" {
		return ""
	}
	recursive := false
	var ops []string
	for _, a := range argv[1:] {
		switch {
		case a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR"):
			recursive = true
		case !strings.HasPrefix(a, "-"):
			ops = append(ops, a)
		}
	}
	if !recursive || len(ops) == 0 {
		return ""
	}
	return "lite-sandbox: root has no capabilities in the sandbox, so unlike root on the host it cannot remove files from a directory without write permission: if rm said \"Permission denied\", make the tree writable first (chmod -R u+w " +
		strings.Join(ops, " ") + ")"
}
