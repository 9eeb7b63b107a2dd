// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import "github.com/lite-sandbox/lite-sandbox/sandbox/confine"

// BackendLandlock names the Landlock backend (#28): no user namespace,
// no mount namespace, no privilege; the command confines itself with
// Landlock rules and the seccomp filter before it executes
// (docs/confinement.md, "The Landlock backend").
const BackendLandlock = "landlock"

// LandlockLine is the line that names the Landlock backend, its ABI and
// what it lacks, or "" for another backend.
func LandlockLine(b Backend) string {
	if b.Name != BackendLandlock {
		return ""
	}
	return confine.LandlockLine(b.ABI)
}
