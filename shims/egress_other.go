// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package shims

import "os"

// ownedAndGone: without a portable owner or liveness check, nothing is
// taken for stale (a later run on a Unix host cleans up).
func ownedAndGone(os.FileInfo, int) bool { return false }
