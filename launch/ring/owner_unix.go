// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package ring

import (
	"os"
	"syscall"
)

// fileOwner is fi's owner.
func fileOwner(fi os.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// noFollow makes an open fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// allocated is the bytes fi's file has on disk (a sparse file has far
// fewer than its size).
func allocated(fi os.FileInfo) (int64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int64(st.Blocks) * 512, true
}
