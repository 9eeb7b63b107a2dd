// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package launch

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// Start runs argv (the agent) outside the sandbox with env and returns
// its exit status. When stdin is a terminal the agent gets a pty of its
// own (see [RunPTY]); otherwise its stdio are passed through ([execEnv]),
// as scripts, CI and `claude -p` need.
func Start(ctx context.Context, env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		return RunPTY(ctx, env, argv, f, stdout)
	}
	return execEnv(ctx, env, argv, stdin, stdout, stderr)
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}

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
// The pty's session is led by [PTYLeaderCommand] of the lite-sandbox
// binary, which starts argv in the pty's foreground group.
func RunPTY(ctx context.Context, env, argv []string, tty *os.File, stdout io.Writer) (int, error) {
	prog, err := newProgram(argv, env)
	if err != nil {
		return exit.NotFound, fmt.Errorf("launch: %w", err)
	}
	exe, err := leaderExe()
	if err != nil {
		return exit.NotExecutable, err
	}
	lead := []string{exe, PTYLeaderCommand}
	if inRing(ctx) {
		lead = append(lead, ptyLeaderRing)
	}
	cmd, err := newProgram(append(append(lead, "--", prog.Path), argv[1:]...), env)
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
	if inRing(ctx) {
		dieWithParent(cmd.SysProcAttr)
	}
	ptmx, err := pty.StartWithSize(cmd, size)
	if err != nil {
		return exit.NotExecutable, fmt.Errorf("launch: %w", err)
	}
	defer ptmx.Close()

	j := &ptyJob{tty: tty, fd: int(tty.Fd()), ptmx: ptmx, leader: cmd, suspKey: make(chan struct{}, 1)}
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
		io.Copy(stdout, ptmx) // ends with EIO once every copy of the pty's slave is closed
	}()

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
	return exitStatus(cmd.ProcessState), nil
}

// leaderExe is the binary that holds [PTYLeaderCommand]: this one.
var leaderExe = func() (string, error) { return ownExe("") }
