// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package pathlook

// executable: where there are no execute bits (Windows), a regular file
// found in PATH is taken as runnable; nothing is sandboxed there anyway
// (docs/limits.md, the Windows row).
func executable(string) bool { return true }
