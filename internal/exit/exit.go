// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package exit is the one table of lite-sandbox's own exit statuses (the
// shim, `run`, `launch`, the confinement step inside the sandbox, the
// CLI). Any other status is the command's own. They follow sysexits.h so
// that they rarely collide with what ordinary commands return; the
// README's table documents the same values.
package exit

import "strconv"

// The statuses.
const (
	// HookBlock: what every agent takes from a hook as "block": the
	// shim's status when it cannot run lite-sandbox's own hook command.
	HookBlock = 2
	// Failed: `check` found the command would be denied; `log` found no
	// such session or could not read the log; any other error.
	Failed = 1
	// Usage: the shim was called with an argv shape it does not accept
	// (fail closed), or the command line was wrong.
	Usage = 64 // EX_USAGE
	// Software: a bug in lite-sandbox itself.
	Software = 70 // EX_SOFTWARE
	// Sandbox: the OS sandbox could not be set up (missing backend in
	// "on" mode, degraded workspace in "on" mode, bwrap failed to exec),
	// or the session's sandbox died while the command ran.
	Sandbox = 71 // EX_OSERR
	// Denied: the validator refused the command; nothing ran. The reason
	// is one line on stderr, written for the model.
	Denied = 77 // EX_NOPERM
	// Config: a policy file is invalid; nothing ran.
	Config = 78 // EX_CONFIG
	// NotExecutable: as a shell's status for a program found but not
	// executable.
	NotExecutable = 126
	// NotFound: as a shell's status for a command not found: the program
	// does not exist, or `launch` found no CLI for the agent (the message
	// says how to install it).
	NotFound = 127
	// signalBase + N is the status after death by signal N, as shells
	// report it.
	signalBase = 128
)

// Signaled is the status of a process killed by signal sig: 128+sig.
func Signaled(sig int) int { return signalBase + sig }

// Error carries the exit status the process should end with. Err, when
// set, is printed (one paragraph) before exiting.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return "exit status " + strconv.Itoa(e.Code)
	}
	return e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
