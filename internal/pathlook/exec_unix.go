// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package pathlook

import "golang.org/x/sys/unix"

// executable asks the kernel, as a shell does: the mode bits, ACLs and a
// noexec mount all count.
func executable(p string) bool { return unix.Access(p, unix.X_OK) == nil }
