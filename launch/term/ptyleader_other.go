// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package term

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// LeaderCommand leads an agent's pty session where ptys exist.
const LeaderCommand = "__pty"

// ServeLeader is unsupported here: there is no pty.
func ServeLeader(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "lite-sandbox: launch: no pty support on this system")
	return exit.NotExecutable
}

// LastInput is never: no launch owns a terminal here.
func LastInput() time.Time { return time.Time{} }

// IsTerminal is false: without ptys a launch passes its stdio through.
func IsTerminal(*os.File) bool { return false }
