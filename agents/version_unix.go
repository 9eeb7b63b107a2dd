// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package agents

import (
	"os"
	"syscall"
)

// fileID is the device and inode of fi: a reinstalled file gets a new
// inode even when npm gives it the same size and mtime.
func fileID(fi os.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
