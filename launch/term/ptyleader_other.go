// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// LeaderCommand leads an agent's pty session where ptys exist.
const LeaderCommand = "__pty"

// ServeLeader is unsupported here: there is no pty.
func ServeLeader(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "lite-sandbox: launch: no pty support on this system")
	return exit.NotExecutable
}

// ErrNoTerminal: no launch owns a terminal here.
var ErrNoTerminal = errors.New("no terminal to ask on")

// Confirm cannot ask: no launch owns a terminal here.
func Confirm(context.Context, []string) (bool, error) { return false, ErrNoTerminal }

// IsAgent is false: no agent runs in a ring here.
func IsAgent(int) bool { return false }

// IsTerminal is false: without ptys a launch passes its stdio through.
func IsTerminal(*os.File) bool { return false }
