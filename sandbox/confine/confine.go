// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package confine is the in-sandbox confinement step, `__confine`:
// no_new_privs, the Landlock scopes and the seccomp filter a command (and
// the agent ring) gets on top of bwrap's namespaces, applied from inside
// before the program is executed; and its probe, for doctor. It imports
// nothing of lite-sandbox's but internal/, so that the shim binary links
// it without the sandbox's builders.
package confine

import (
	"strconv"
	"strings"
)

// Command is the hidden subcommand of the lite-sandbox binary that
// runs inside the sandbox, confines itself further and then executes the
// command: `lite-sandbox __confine -- PROGRAM ARGS...`. bwrap cannot
// express what it applies (a Landlock scope, a seccomp filter with
// argument checks), and applying it from inside needs no descriptor
// plumbing through bwrap.
//
// The seccomp filter is written against the kernel interface directly
// rather than through github.com/elastic/go-seccomp-bpf, which compares
// whole 64-bit arguments, so an ioctl request with high bits set
// (0x100005412) would fail its Equal test while the kernel truncates it
// to TIOCSTI (CVE-2019-10063). The Landlock backend's rules (#28) are
// built with go-landlock's ruleset builder (NewRulesetFD, downgraded to
// the kernel's ABI) and enforced by the one locked thread that then
// execs, not through its all-threads restriction; the bwrap backend's
// scope-only domain is one system call and stays hand-written.
const Command = "__confine"

// Argv returns the argv that runs argv through exe's confinement.
func Argv(exe string, argv []string) []string {
	return append([]string{exe, Command, "--"}, argv...)
}

// seccompBlocked names what the seccomp filter stops, for doctor.
var seccompBlocked = []string{
	"TIOCSTI", "TIOCLINUX", "CLONE_NEWUSER", "clone3 (ENOSYS)", "ptrace",
	"process_vm_readv/writev", "io_uring", "keyctl",
}

// Confinement says what [Exec] applies (or would apply) on this
// kernel, for doctor.
type Confinement struct {
	// Seccomp is true when the filter is installed.
	Seccomp bool
	// SeccompWhy says why not, when Seccomp is false.
	SeccompWhy string
	// LandlockABI is the kernel's Landlock ABI, 0 without Landlock.
	LandlockABI int
	// Scoped is true when abstract Unix sockets and signals are scoped to
	// the sandbox (Landlock ABI 6 and later).
	Scoped bool
	// LandlockWhy says why not, when Scoped is false.
	LandlockWhy string
}

// Lines returns doctor's lines for c.
func (c Confinement) Lines() []string {
	sec := "seccomp filter: in force (" + strings.Join(seccompBlocked, ", ") + ")"
	if !c.Seccomp {
		sec = "seccomp filter: NOT in force (" + c.SeccompWhy + ")"
	}
	ll := "landlock: NOT in force (" + c.LandlockWhy + "); host abstract Unix sockets are reachable when the network is open"
	if c.Scoped {
		ll = "landlock: ABI " + strconv.Itoa(c.LandlockABI) + ", abstract unix sockets and signals scoped"
	}
	return []string{sec, ll, "namespaces: pid, ipc, uts, cgroup, and net unless network = \"host\" (or \"open\" without slirp4netns); every capability dropped"}
}
