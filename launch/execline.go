// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"io"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Confinement is what is in force for a program under `launch exec`.
type Confinement struct {
	// Ring: the program itself runs in the agent ring (the host
	// read-only but its workspace, and every shell is the shim).
	Ring bool
	// Sandboxed: the session has a sandbox for the commands.
	Sandboxed bool
}

// execLine is the one line `launch exec` prints at start, and the one
// place its wording lives (its --help says the same, through
// [ExecHelp]): what runs in the sandbox and what does not.
func execLine(c Confinement) string {
	var prog string
	if c.Ring {
		prog = "the program itself runs in the agent ring (the host read-only but the workspace), where every shell (sh, bash, ...) is the shim; the commands it runs through a shell go through the shim"
	} else {
		prog = "the program itself runs on the host with your rights, and a shell you type into there is the host's (it sees your real home); only the commands it runs through $SHELL go through the shim"
	}
	cmds := "which validates them and runs them in the sandbox"
	if !c.Sandboxed {
		cmds = "which validates them but runs them UNSANDBOXED"
	}
	return prog + ", " + cmds
}

// ExecHelp is execLine for --help: with a sandbox backend, the ring
// where this system has one.
func ExecHelp() string {
	return execLine(Confinement{Ring: ringSupported, Sandboxed: true})
}

// printStartLine prints execLine for `launch exec` (the program adapter),
// from what RunAgent put in force.
func printStartLine(w io.Writer, a agents.Agent, ring, sandboxed bool) {
	if _, ok := a.(program); !ok {
		return
	}
	fmt.Fprintf(w, "lite-sandbox: %s.\n", execLine(Confinement{Ring: ring, Sandboxed: sandboxed}))
}
