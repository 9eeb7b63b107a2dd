// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package netroute

import (
	"fmt"
	"os"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// Command is the helper's argv[1] (netroute_linux.go).
const Command = "__netroutes"

// Main refuses: prohibit routes are rtnetlink's, Linux only
// (network = "open" shares the host's network elsewhere, with a
// warning; docs/egress.md).
func Main(args []string) int {
	fmt.Fprintf(os.Stderr, "lite-sandbox: %s: Linux only\n", Command)
	return exit.Sandbox
}
