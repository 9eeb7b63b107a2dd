// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package gemini

import (
	"io/fs"
	"syscall"
)

// ownedByRoot says whether fi's owner is uid 0.
func ownedByRoot(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0
}
