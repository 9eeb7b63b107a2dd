// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
)

// ErrUnsupported is returned on systems without a sandbox backend
// (anything but Linux and macOS, Windows included).
var ErrUnsupported = errors.New("no OS sandbox backend for this operating system (only Linux with bubblewrap and macOS with sandbox-exec are supported)")

// SetupError reports that a sandbox could not be set up for a command:
// the command did not run. Op names the step ("workspace", "cwd",
// "layout", "profile", ...).
type SetupError struct {
	Op  string
	Err error
}

// Error returns "sandbox setup: <op>: <cause>".
func (e *SetupError) Error() string {
	return fmt.Sprintf("sandbox setup: %s: %v", e.Op, e.Err)
}

// Unwrap returns the cause.
func (e *SetupError) Unwrap() error { return e.Err }

// RefusedError reports that sandbox mode "on" refuses to run commands:
// there is no working backend, or the workspace would make the sandbox
// degraded. Reason says why, with a hint.
type RefusedError struct {
	Reason string
	Err    error // the detection error, if any
}

// Error says that mode on refuses to run, and why.
func (e *RefusedError) Error() string {
	return "sandbox mode is on, refusing to run commands: " + e.Reason
}

// Unwrap returns the detection error, if any.
func (e *RefusedError) Unwrap() error { return e.Err }

// envBwrap names the variable that points at the bwrap binary to use,
// for a bwrap outside PATH (and for tests that need a missing one).
const envBwrap = "LITE_SANDBOX_BWRAP"
