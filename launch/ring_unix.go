// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package launch

import (
	"context"
	"os"
	"os/exec"
	"syscall"
)

// signalProgram sends sig to the started program. A program in the ring
// is bwrap, which does not forward signals to the agent (it has no PID
// namespace to be init of), so the ring's whole process group gets it:
// bwrap leads it (Setpgid or Setsid), the agent is in it.
func signalProgram(ctx context.Context, cmd *exec.Cmd, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok && inRing(ctx) {
		if syscall.Kill(-cmd.Process.Pid, s) == nil {
			return
		}
	}
	cmd.Process.Signal(sig)
}

// endRing kills what is left in the group of the program the launcher
// started once it is gone. In the ring that program is the pty leader
// (term.ServeLeader), which has already killed every process below it,
// one that made a session of its own (setsid) too, and does so also
// when the launcher is killed with SIGKILL (escape class 41).
func endRing(ctx context.Context, cmd *exec.Cmd) {
	if inRing(ctx) && cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
