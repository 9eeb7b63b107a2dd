// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

// Exit statuses of the shim and of `lite-sandbox run`. Any other status is
// the command's own. They follow sysexits.h so that they rarely collide
// with what ordinary commands return, and they are documented once here
// and in the README.
const (
	// ExitDenied: the validator refused the command; nothing ran. The
	// reason is one line on stderr, written for the model.
	ExitDenied = 77 // EX_NOPERM
	// ExitUsage: the shim was called with an argv shape it does not
	// accept (fail closed), or the command line was wrong.
	ExitUsage = 64 // EX_USAGE
	// ExitSandbox: the OS sandbox could not be set up (missing backend in
	// "on" mode, degraded workspace in "on" mode, bwrap failed to exec).
	ExitSandbox = 71 // EX_OSERR
	// ExitConfig: a policy file is invalid; nothing ran.
	ExitConfig = 78 // EX_CONFIG
	// ExitNotInstalled: launch found no CLI for the agent (as a shell's
	// status for a command not found); the message says how to install it.
	ExitNotInstalled = 127
)
