// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package contract

import (
	"fmt"
	"os"
	"syscall"
)

// CheckPrivate checks that dir is a real directory (not a symlink) owned
// by the current user that no one else may enter: exactly mode 0700 when
// exact is set, else no group or other permission bits.
func CheckPrivate(dir string, exact bool) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: not a directory (a symlink?)", ErrInsecure)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%w: cannot read its owner", ErrInsecure)
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("%w: owned by uid %d, not %d", ErrInsecure, st.Uid, uid)
	}
	perm := fi.Mode().Perm()
	if exact && perm != DirMode || perm&0o077 != 0 {
		return fmt.Errorf("%w: mode %#o, want %#o", ErrInsecure, perm, DirMode)
	}
	return nil
}
