// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import "os"

func symlink(target, name string) error { return os.Symlink(target, name) }

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}
