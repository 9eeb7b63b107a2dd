// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package audit

import "os"

// lockExclusive does nothing where there is no flock (no backend there
// either: commands run one at a time through `run`).
func lockExclusive(*os.File) error { return nil }
