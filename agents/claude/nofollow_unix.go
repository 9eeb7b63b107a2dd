// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package claude

import "syscall"

// openNoFollow: never follow a link in the last component, and never
// block on a FIFO planted in its place.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
