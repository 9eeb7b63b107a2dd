// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package launch

import (
	"fmt"
	"io"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// PTYLeaderCommand leads an agent's pty session where ptys exist.
const PTYLeaderCommand = "__pty"

// ServePTYLeader is unsupported here: there is no pty.
func ServePTYLeader(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "lite-sandbox: launch: no pty support on this system")
	return exit.NotExecutable
}
