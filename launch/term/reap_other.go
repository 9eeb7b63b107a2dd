// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package term

import "syscall"

// DieWithParent, becomeSubreaper and reapAll serve the agent ring, which
// is Linux only.
func DieWithParent(*syscall.SysProcAttr) {}
func becomeSubreaper()                   {}
func reapAll()                           {}
