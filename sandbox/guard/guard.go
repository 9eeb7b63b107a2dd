// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package guard holds a workspace's protected paths from the launcher,
// outside every sandbox, while a sandbox of the workspace runs: what
// appears at a protected path that did not exist is moved to the
// workspace's quarantine at once (watch_linux.go), and under the
// Landlock backend an existing one is held to the copy taken at start:
// whatever differs is moved away and the copy put back (keep_linux.go).
// The records beside the workspace's lock file let the last sandbox of
// a workspace, or the first after a launcher was killed, do the same
// (record_linux.go). The sandbox package decides which paths are
// guarded (its Spec's protected paths) and owns the lock; this package
// knows only paths, docs/confinement.md "Protected paths" and
// docs/limits.md.
package guard

import (
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
)

// Path is one guarded path that does not exist: Path, strictly below
// Root (the workspace), is watched from Root down.
type Path struct {
	Root, Path string
}

// Quarantined is a protected path the guard moved away (a sandbox
// created it) or put back from its copy (a sandbox changed it).
type Quarantined struct {
	Path string // the protected path
	To   string // where it went; "" when it was removed (another file system)
	// Restored: the path existed, was changed, replaced or removed, and
	// the launcher's copy from the start was put back (Landlock backend).
	Restored bool
	// Gone: what was restored had been removed (nothing to quarantine).
	Gone bool
}

// String is the line a caller shows.
func (q Quarantined) String() string {
	if q.Restored {
		to := "the changed version was removed (the quarantine is on another file system)"
		if q.Gone {
			to = "it had been removed"
		} else if q.To != "" {
			to = "the changed version was moved to " + esc.Printable(q.To)
		}
		return fmt.Sprintf("%s is a protected path and was changed while a sandbox of the workspace ran: restored from the copy taken at start; %s (docs/limits.md, \"Protected paths under the Landlock backend\")",
			esc.Printable(q.Path), to)
	}
	if q.To == "" {
		return fmt.Sprintf("%s is a protected path and appeared while a sandbox of the workspace ran: removed (docs/confinement.md, \"Protected paths\")", esc.Printable(q.Path))
	}
	return fmt.Sprintf("%s is a protected path and appeared while a sandbox of the workspace ran: moved to %s (if it is yours, move it back on the host; docs/confinement.md, \"Protected paths\")",
		esc.Printable(q.Path), esc.Printable(q.To))
}
