// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import "fmt"

// Quarantined is a protected path a sandbox created, moved away.
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
			to = "the changed version was moved to " + Printable(q.To)
		}
		return fmt.Sprintf("%s is a protected path and was changed while a sandbox of the workspace ran: restored from the copy taken at start; %s (docs/limits.md, \"Protected paths under the Landlock backend\")",
			Printable(q.Path), to)
	}
	if q.To == "" {
		return fmt.Sprintf("%s is a protected path and appeared while a sandbox of the workspace ran: removed (docs/confinement.md, \"Protected paths\")", Printable(q.Path))
	}
	return fmt.Sprintf("%s is a protected path and appeared while a sandbox of the workspace ran: moved to %s (if it is yours, move it back on the host; docs/confinement.md, \"Protected paths\")",
		Printable(q.Path), Printable(q.To))
}

// Quarantined returns what the guard of the sandbox moved away (see
// guard_linux.go), once Done has returned: the paths the sandbox
// created, and those a crashed sandbox of the workspace left.
func (p *Prepared) Quarantined() []Quarantined {
	if p == nil {
		return nil
	}
	return p.quarantined
}
