// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command lite-sandbox-shim is the shim alone: what agents run as their
// shell, bundled and installed beside lite-sandbox, which links every
// session's shell (and, in the agent ring, every shell binary) to it. It
// does what lite-sandbox does under a shell's name and inside the
// sandbox, without the command line, the launcher or the agents'
// adapters, so that it starts faster: it runs once per command
// (docs/performance.md).
package main

import (
	"os"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims"
)

func main() {
	if code, ok := shims.Dispatch(os.Args, os.Stderr); ok {
		os.Exit(code)
	}
	os.Stderr.WriteString("lite-sandbox-shim: this is the shell of lite-sandbox's sessions; run it as a shell (-c CMD) or use lite-sandbox\n")
	os.Exit(exit.Usage)
}
