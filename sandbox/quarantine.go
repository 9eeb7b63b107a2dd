// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import "github.com/lite-sandbox/lite-sandbox/sandbox/guard"

// Quarantined is a protected path the guard of a sandbox moved away or
// put back (package guard).
type Quarantined = guard.Quarantined

// Quarantined returns what the guard of the sandbox moved away or put
// back, once Done has returned: the paths the sandbox created or
// changed, and those a crashed sandbox of the workspace left.
func (p *Prepared) Quarantined() []Quarantined {
	if p == nil {
		return nil
	}
	return p.quarantined
}
