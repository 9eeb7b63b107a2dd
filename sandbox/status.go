// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
)

// Backend is a detected OS sandbox program.
type Backend struct {
	Name    string // "bwrap", "landlock" or "sandbox-exec"
	Path    string // absolute path of the program
	Version string // for example "0.8.0"; "" when the program has none
	ABI     int    // the Landlock backend's kernel ABI; 0 for the others
	// Fallback says why bwrap was not used when the Landlock backend was
	// chosen automatically ("" otherwise).
	Fallback string
}

// String returns "bwrap 0.8.0", or just the name without a version.
func (b Backend) String() string {
	if b.Version == "" {
		return b.Name
	}
	return b.Name + " " + b.Version
}

// State is the sandbox's condition for a session.
type State int

// The states, as shown on the status line.
const (
	// StateOff: sandbox mode is off; commands run unsandboxed.
	StateOff State = iota
	// StateActive: commands run in the sandbox.
	StateActive
	// StateDegraded: commands run in the sandbox, but the workspace makes
	// it much weaker (see [Degraded]).
	StateDegraded
	// StateUnavailable: mode auto found no working backend; commands run
	// unsandboxed and the caller must warn loudly.
	StateUnavailable
)

// String returns the state's name as shown on the status line.
func (s State) String() string {
	switch s {
	case StateOff:
		return "off"
	case StateActive:
		return "active"
	case StateDegraded:
		return "degraded"
	case StateUnavailable:
		return "unavailable"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Status is the outcome of [Resolve], printed as the status line.
type Status struct {
	State   State
	Backend Backend // set when State is active or degraded
	Reason  string  // why: degraded, unavailable or off
}

// String returns the status line, for example "active (bwrap 0.8.0)" or
// "degraded (workspace / makes the whole filesystem writable)".
func (s Status) String() string {
	if s.State == StateActive {
		return fmt.Sprintf("%s (%s)", s.State, s.Backend)
	}
	return fmt.Sprintf("%s (%s)", s.State, s.Reason)
}

// Sandboxed reports whether commands run inside the OS sandbox.
func (s Status) Sandboxed() bool {
	return s.State == StateActive || s.State == StateDegraded
}

// Resolve decides how a session runs commands, from the policy's mode,
// the result of [Detect] and the workspace:
//
//   - off: [StateOff], whatever else is true;
//   - no backend: mode on fails with a [*RefusedError] naming the cause
//     and how to install one; mode auto returns [StateUnavailable], and
//     the caller warns loudly and runs unsandboxed;
//   - a degraded workspace (see [Degraded]): mode on fails closed with a
//     [*RefusedError]; mode auto returns [StateDegraded], and the caller
//     runs sandboxed with a warning (escape class 34);
//   - otherwise [StateActive].
//
// An unknown mode is an error: nothing may run on a policy that could not
// be understood.
func Resolve(mode Mode, b Backend, detectErr error, workspace, home string) (Status, error) {
	switch mode {
	case ModeOff:
		return Status{State: StateOff, Reason: "sandbox mode is off"}, nil
	case ModeOn, ModeAuto:
	default:
		return Status{}, fmt.Errorf("sandbox: unknown mode %q (want auto, on or off)", mode)
	}
	if detectErr == nil && (b.Name == "" || b.Path == "") {
		detectErr = errors.New("no sandbox backend detected")
	}
	if detectErr != nil {
		if mode == ModeOn {
			return Status{}, &RefusedError{Reason: detectErr.Error(), Err: detectErr}
		}
		return Status{State: StateUnavailable, Reason: detectErr.Error()}, nil
	}
	if bad, why := Degraded(workspace, home); bad {
		if mode == ModeOn {
			return Status{}, &RefusedError{Reason: why + "; start from a project directory, or use sandbox mode auto to run degraded with a warning"}
		}
		return Status{State: StateDegraded, Backend: b, Reason: why}, nil
	}
	return Status{State: StateActive, Backend: b}, nil
}

// Mode says what happens when no OS sandbox backend is available.
type Mode string

// The sandbox modes.
const (
	ModeAuto Mode = "auto" // use the backend if present, else warn and run unsandboxed
	ModeOn   Mode = "on"   // refuse to run without a backend
	ModeOff  Mode = "off"  // never sandbox
)
