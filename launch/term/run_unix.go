// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// outputDrain bounds the wait for the agent's last output after it
// exited: a process it left behind may hold the pty open.
const outputDrain = 2 * time.Second

// RunPTY runs argv on a new pty, with tty (the user's terminal) in raw
// mode, so that keys, Ctrl-C included, reach the agent as typed and its
// terminal UI draws as it would on its own. The pty starts with tty's
// size and follows it (SIGWINCH); SIGINT, SIGTERM, SIGHUP and SIGQUIT
// sent to the launcher are forwarded to the agent. Job control works as
// for the agent run directly (see [ptyJob]): Ctrl-Z or SIGTSTP stops it
// and the launcher's job, fg resumes it. tty's settings are restored on
// every return path. The agent's output goes to stdout (its stderr
// shares the pty). When ctx ends, the agent gets SIGTERM, and SIGKILL a
// few seconds later.
//
// The pty's session is led by [LeaderCommand] of the lite-sandbox
// binary exe, which starts argv in the pty's foreground group; ring says
// that argv is the agent ring (bwrap around the agent).
func Run(ctx context.Context, env, argv []string, tty *os.File, stdout io.Writer, exe string, ring bool) (int, error) {
	prog, err := Program(argv, env)
	if err != nil {
		return exit.NotFound, fmt.Errorf("launch: %w", err)
	}
	lead := []string{exe, LeaderCommand}
	if ring {
		lead = append(lead, leaderRing)
	}
	cmd, err := Program(append(append(lead, "--", prog.Path), argv[1:]...), env)
	if err != nil {
		return exit.NotExecutable, fmt.Errorf("launch: %w", err)
	}

	sigc := make(chan os.Signal, 8)
	signal.Notify(sigc, unix.SIGWINCH, unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT, unix.SIGTSTP, unix.SIGCONT)
	defer signal.Stop(sigc)

	size, err := pty.GetsizeFull(tty)
	if err != nil {
		size = nil // start with the pty's default size
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	cmd.ExtraFiles = Files(ctx)
	if ring {
		LeaderDiesWithParent(cmd.SysProcAttr)
	}
	ptmx, err := pty.StartWithSize(cmd, size)
	if err != nil {
		return exit.NotExecutable, fmt.Errorf("launch: %w", err)
	}
	defer ptmx.Close()

	j := &ptyJob{tty: tty, fd: int(tty.Fd()), ptmx: ptmx, leader: cmd, suspKey: make(chan struct{}, 1), ring: ring, out: stdout}
	if err := j.enterRaw(); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return -1, fmt.Errorf("launch: terminal raw mode: %w", err)
	}
	defer j.leaveRaw()

	go j.copyInput()
	var out sync.WaitGroup
	out.Add(1)
	go func() {
		defer out.Done()
		j.copyOutput()
	}()
	// The confirm line of the session's questions is drawn here
	// (Confirm, docs/validator.md §8.2).
	current.Store(j)
	defer current.CompareAndSwap(j, nil)

	err = j.supervise(ctx, sigc)
	drained := make(chan struct{})
	go func() { out.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(outputDrain):
	}
	if err != nil {
		return -1, fmt.Errorf("launch: %w", err)
	}
	return ExitStatus(cmd.ProcessState), nil
}

// Program is the command that starts argv with env; a program that
// cannot be found is an error (status 127 for the caller).
func Program(argv, env []string) (*exec.Cmd, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("no program given")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	cmd.Env = env
	return cmd, nil
}

// ExitStatus maps how a process ended to a shell's exit status.
func ExitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return exit.Signaled(int(ws.Signal()))
	}
	return ps.ExitCode()
}

// PlainLeaderArgv is the argv that runs the agent ring argv (bwrap around
// the agent) without a pty, under exe's leader: a session of its own
// with no controlling terminal, the ring reaped whole (exe is the
// lite-sandbox binary; prog the ring's program, resolved).
func PlainLeaderArgv(exe, prog string, args []string) []string {
	return append([]string{exe, LeaderCommand, leaderRing, leaderPlain, "--", prog}, args...)
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}
