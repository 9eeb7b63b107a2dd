// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package term

import (
	"os"
	"syscall"
)

// DieWithParent, LeaderDiesWithParent, becomeSubreaper, watchParent and killRing serve the
// agent ring, which is Linux only.
func DieWithParent(*syscall.SysProcAttr)        {}
func LeaderDiesWithParent(*syscall.SysProcAttr) {}
func becomeSubreaper()                          {}
func watchParent() (<-chan os.Signal, int)      { return nil, 0 }
func parentGone(int) bool                       { return false }
func killRing()                                 {}
