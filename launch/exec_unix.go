// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/launch/term"
)

// killDelay is how long execEnv waits after SIGTERM, when ctx ends, before
// it kills the program.
const killDelay = term.KillDelay

// execEnv runs argv (the agent) outside the sandbox with the
// environment env, and returns its exit status: its exit code, or
// 128+N after death by signal N (Start).
//
// The program runs in its own process group. When stdin is the terminal
// and the caller is in its foreground, that group becomes the
// foreground: Ctrl-C then reaches the program (and its children) once,
// from the terminal, and never the session's owner or its sandbox.
// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the caller are forwarded to
// the program. When ctx ends, the program gets SIGTERM, and SIGKILL
// after a few seconds. A program that cannot be started is an error with
// status 127 (not found) or 126.
//
// The agent ring without a pty runs under the pty leader in plain mode
// (ptyLeaderPlain), in a session of its own: no controlling terminal,
// so the user's terminal cannot be opened or fed from the ring, and
// the leader waits for every process of the ring.
func execEnv(ctx context.Context, env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if inRing(ctx) {
		exe, err := leaderExe()
		if err != nil {
			return exit.NotExecutable, err
		}
		prog, err := term.Program(argv, env)
		if err != nil {
			return exit.NotFound, fmt.Errorf("launch exec: %w", err)
		}
		argv = term.PlainLeaderArgv(exe, prog.Path, argv[1:])
	}
	cmd, err := term.Program(argv, env)
	if err != nil {
		return exit.NotFound, fmt.Errorf("launch exec: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.ExtraFiles = term.Files(ctx)
	attr := &syscall.SysProcAttr{Setpgid: true}
	tty := foregroundTTY(stdin)
	switch {
	case inRing(ctx):
		attr = &syscall.SysProcAttr{Setsid: true}
		term.LeaderDiesWithParent(attr)
		tty = -1
	case tty >= 0:
		attr.Foreground = true
		attr.Ctty = tty
	}
	cmd.SysProcAttr = attr

	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT)
	defer signal.Stop(sigc)

	if err := cmd.Start(); err != nil {
		return exit.NotExecutable, fmt.Errorf("launch exec: %w", err)
	}
	if tty >= 0 {
		defer takeForeground(tty)
	}
	if err := waitProgram(ctx, cmd, sigc, nil); err != nil {
		return -1, fmt.Errorf("launch exec: %w", err)
	}
	return term.ExitStatus(cmd.ProcessState), nil
}

// waitProgram waits for the started cmd. The signals on sigc are
// forwarded to it, but SIGWINCH, which calls resize when it is set; when
// ctx ends it gets SIGTERM, and SIGKILL killDelay later. A status that is
// not an exit status (of any code or signal) is the error.
func waitProgram(ctx context.Context, cmd *exec.Cmd, sigc <-chan os.Signal, resize func()) error {
	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()
	ctxDone := ctx.Done()
	var kill <-chan time.Time
	for {
		select {
		case sig := <-sigc:
			if sig == unix.SIGWINCH {
				if resize != nil {
					resize()
				}
				continue
			}
			signalProgram(ctx, cmd, sig)
		case <-ctxDone:
			ctxDone = nil
			signalProgram(ctx, cmd, unix.SIGTERM)
			kill = time.After(killDelay)
		case <-kill:
			cmd.Process.Kill()
		case err := <-waitc:
			endRing(ctx, cmd)
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				return err
			}
			return nil
		}
	}
}

// foregroundTTY returns stdin's descriptor if it is a terminal whose
// foreground process group is the caller's, else -1.
func foregroundTTY(stdin io.Reader) int {
	f, ok := stdin.(*os.File)
	if !ok {
		return -1
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	rc.Control(func(d uintptr) {
		if pg, err := unix.IoctlGetInt(int(d), unix.TIOCGPGRP); err == nil && pg == unix.Getpgrp() {
			fd = int(d)
		}
	})
	return fd
}

// takeForeground makes the caller's process group the terminal's
// foreground again. A background group doing so gets SIGTTOU unless it
// ignores it; the caller keeps ignoring it afterwards (os/signal cannot
// restore an uncaught default), which only matters if it writes to the
// terminal from the background later, and then in its favour.
func takeForeground(tty int) {
	signal.Ignore(unix.SIGTTOU)
	unix.IoctlSetPointerInt(tty, unix.TIOCSPGRP, unix.Getpgrp())
}
