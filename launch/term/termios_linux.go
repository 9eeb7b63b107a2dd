// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import "golang.org/x/sys/unix"

const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
