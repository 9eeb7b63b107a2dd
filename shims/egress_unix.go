// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package shims

import (
	"errors"
	"os"
	"syscall"
)

// ownedAndGone: the directory is this user's (a shared /tmp holds other
// users' too, never touched) and the process that made it has exited.
func ownedAndGone(fi os.FileInfo, pid int) bool {
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
