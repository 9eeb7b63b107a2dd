// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package launch

import "syscall"

// dieWithParent, becomeSubreaper and reapAll serve the agent ring, which
// is Linux only.
func dieWithParent(*syscall.SysProcAttr) {}
func becomeSubreaper()                   {}
func reapAll()                           {}
