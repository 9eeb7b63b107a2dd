// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package term

import "golang.org/x/sys/unix"

// jobStopped cannot look at other processes' states without /proc: an
// agent's stop is not noticed here, so Ctrl-Z under launch does nothing
// visible (the agent stops and the launcher keeps the terminal) until
// SIGCONT reaches the agent. Only Linux is supported for job control.
func jobStopped(leader, pgrp int) bool { return false }

// defaultSignal is not needed where jobStopped never reports a stop.
func defaultSignal(sig unix.Signal) func() { return func() {} }
