// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// checkCommand validates what every platform's Command needs: a
// workspace, a program to run, and a working directory that the sandbox
// can see. A command the agent starts elsewhere (Crush's working_dir,
// escape class A7) is refused rather than moved.
func checkCommand(s Spec, argv []string) error {
	if len(argv) == 0 || argv[0] == "" {
		return &SetupError{Op: "argv", Err: errors.New("no program to run")}
	}
	if err := checkAbs("workspace", s.Workspace); err != nil {
		return &SetupError{Op: "workspace", Err: err}
	}
	cwd := s.Cwd
	if cwd == "" {
		cwd = s.Workspace
	}
	if err := checkAbs("working directory", cwd); err != nil {
		return &SetupError{Op: "cwd", Err: err}
	}
	if hostpath.WithinAny(cwd, s.Deny) {
		return &SetupError{Op: "cwd", Err: fmt.Errorf("working directory %s lies in a denied path", cwd)}
	}
	if !hostpath.Within(cwd, s.Workspace) && !hostpath.WithinAny(cwd, s.Write) && !hostpath.WithinAny(cwd, s.Read) {
		return &SetupError{Op: "cwd", Err: fmt.Errorf("working directory %s is outside the workspace %s and every granted path", cwd, s.Workspace)}
	}
	return nil
}

// Prepared is a sandbox command line ready to run; call Done when the
// sandbox has exited.
type Prepared struct {
	Path string   // the backend's program
	Args []string // Args[0] is Path
	// Placeholders are the protected paths that did not exist: bwrap
	// creates them empty on the host as mount points.
	Placeholders []string
	// Mounts is the layout (the agent ring's, for the launcher to tell
	// its mount points from what the agent left in a scratch directory).
	Mounts []Mount
	// Notice is a warning line for the user when the command shares the
	// host's network (network = "host", or "open" without its user-space
	// stack), "" otherwise; the caller prints it (docs/egress.md).
	Notice string

	net         *userNet // network = "open" through the user-space stack (Linux)
	release     func()
	quarantined []Quarantined
}

// Done releases what Prepare holds (on Linux: removes the placeholders
// when no other sandbox of the workspace runs). It is idempotent and
// safe on nil.
func (p *Prepared) Done() {
	if p != nil && p.release != nil {
		p.release()
		p.release = nil
	}
}
