// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"io"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/launch/ring"
)

// Confinement is what is in force for a program under `launch exec`.
type Confinement struct {
	// Ring: the program itself runs in the agent ring (nothing of the
	// host but the system, the workspace and what it is granted; every
	// shell, and git, is the shim).
	Ring bool
	// Sandboxed: the session has a sandbox for the commands.
	Sandboxed bool
	// Landlock: the ring is the Landlock backend's (#28): no shell is
	// bound to the shim; the real ones cannot run.
	Landlock bool
}

// execLine is the one line `launch exec` prints at start, and the one
// place its wording lives (its --help says the same, through
// [ExecHelp]): what runs in the sandbox and what does not.
func execLine(c Confinement) string {
	var prog string
	if c.Ring && c.Landlock {
		prog = "the program itself runs in the Landlock agent ring (it sees the system, the workspace and what agent.read grants, writes only the workspace, and reaches TCP only through its own proxy), where the host's shells and git cannot run; the commands it runs through $SHELL (the shim) go through the shim"
	} else if c.Ring {
		prog = "the program itself runs in the agent ring (it sees the system, the workspace and what agent.read grants, writes only the workspace, and reaches only the hosts of agent.allow_domains and agent.host_ports, through its own proxy), where every shell (sh, bash, ...) and git is the shim; the commands it runs through a shell go through the shim"
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
func printStartLine(w io.Writer, a agents.Agent, ring, sandboxed, landlock bool) {
	if _, ok := a.(program); !ok {
		return
	}
	fmt.Fprintf(w, "lite-sandbox: %s.\n", execLine(Confinement{Ring: ring, Sandboxed: sandboxed, Landlock: landlock}))
}

// RingLines are doctor's lines on the agent ring: what it covers here
// and what it does not (docs/security-model.md §6).
func RingLines(scoped bool, sandboxed bool) []string {
	if !ringSupported {
		return []string{"agent ring: none on this system (the agent runs on the host; only its shell commands are sandboxed)"}
	}
	if !sandboxed {
		return []string{"agent ring: none without a sandbox backend (the agent runs on the host)"}
	}
	ll := "Landlock scopes (abstract sockets, signals) in force"
	if !scoped {
		ll = "Landlock scopes NOT in force (this kernel: host abstract sockets such as X11 and D-Bus stay reachable from the agent)"
	}
	return []string{
		"agent ring: the agent and all it starts run in their own PID and IPC namespaces with a fresh /proc and /dev, no_new_privs, the commands' seccomp filter, " + ll,
		"agent ring: sees the system, the workspace, its own state, git identity, tools, caches and agent.read; writes the workspace and its own data only; every shell and git is the shim",
		"agent ring: network (in every sandbox.network mode): loopback only; out only through the agent's own proxy, to its provider hosts and agent.allow_domains (separate from the commands' list), agent.host_ports forwarded from the host's loopback; no host service, LAN, metadata address or DNS",
		"agent ring: host Unix sockets, SSH_AUTH_SOCK, TMUX, DBUS_SESSION_BUS_ADDRESS and the display are absent (grant with agent.read / agent.env)",
	}
}

// LandlockRingLine is doctor's line on the agent ring under the
// Landlock backend (#28; docs/ring.md "The Landlock ring").
func LandlockRingLine() string {
	return "the agent and all it starts confined by Landlock rules (the ring's allow-lists: system, /etc allow-list, workspace, its own state), seccomp and Landlock scopes; " + ring.LandlockLacks
}
