// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package term

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// LeaderCommand is the hidden subcommand of the lite-sandbox binary
// that leads the agent's pty session: `lite-sandbox __pty -- ARGV...`.
//
// Why a process of its own: a process group whose members have no parent
// in the same session but in another group is orphaned, and the kernel
// discards SIGTSTP, SIGTTIN and SIGTTOU sent to it. Were the agent the
// leader of the pty's session (its parent, the launcher, lives in the
// user's session), Ctrl-Z would never stop it: Claude says it has been
// suspended and hangs, a plain program does not stop at all. The leader
// sits between: it owns the session and the pty, and starts the agent (or
// bwrap around it) in a process group of its own in the pty's foreground,
// which then has a parent in the same session: its stops are real.
const LeaderCommand = "__pty"

// leaderRing is the leader's flag for a program that is the agent
// ring (bwrap around the agent).
const leaderRing = "--ring"

// leaderPlain is the leader's flag for a ring started without a pty:
// the leader then leads a session without a controlling terminal (the
// launcher's setsid), so that nothing in the ring can open the user's
// terminal and push keystrokes into it (/dev/tty, TIOCSTI: escape class
// 42), and the program runs in a process group of its own.
const leaderPlain = "--plain"

// ServeLeader is [LeaderCommand]: args are [--ring] -- ARGV; stdin
// is the pty (already the controlling terminal, by the launcher's setsid
// and TIOCSCTTY). It runs argv in a new process group in the pty's
// foreground, forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to it, and
// returns its exit status (128+N after death by signal N). A program
// that cannot start is 127 or 126, with a message on stderr.
//
// With --ring the program is bwrap, which neither forwards signals nor,
// without a PID namespace, takes the agent's leftovers with it: signals
// go to the program's whole process group, and what is left of the group
// when the program exits is killed (as [endRing] does without a pty).
//
// With --ring the leader is also the subreaper of the ring, and kills
// every process of it when the program exits or the launcher dies,
// returning only once all are gone ([killRing]); with --plain
// (only with --ring) there is no pty: the program gets a process group
// of its own, not the terminal's foreground.
func ServeLeader(args []string, stderr io.Writer) int {
	ring := len(args) > 0 && args[0] == leaderRing
	if ring {
		args = args[1:]
	}
	plain := ring && len(args) > 0 && args[0] == leaderPlain
	if plain {
		args = args[1:]
	}
	if len(args) < 2 || args[0] != "--" {
		fmt.Fprintf(stderr, "lite-sandbox: launch: usage: %s [%s [%s]] -- PROGRAM [ARGS...]\n", LeaderCommand, leaderRing, leaderPlain)
		return exit.Usage
	}
	argv := args[1:]
	cmd, err := Program(argv, os.Environ())
	if err != nil {
		fmt.Fprintf(stderr, "lite-sandbox: launch: %v\n", err)
		return exit.NotFound
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Foreground: !plain, Ctty: 0}
	var orphaned <-chan os.Signal
	ppid := 0
	if ring {
		DieWithParent(cmd.SysProcAttr)
		becomeSubreaper()
		orphaned, ppid = watchParent()
	}
	sigc := make(chan os.Signal, 8)
	signal.Notify(sigc, unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT)
	// No signal.Ignore here: ignored dispositions survive exec, and the
	// agent must be stoppable. The leader's own group is orphaned, so
	// stop signals sent to it are discarded anyway.
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "lite-sandbox: launch: %v\n", err)
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return exit.NotFound
		}
		return exit.NotExecutable
	}
	return leaderWait(cmd, ring, sigc, orphaned, ppid, stderr)
}

// leaderWait forwards sigc to the program (to its whole group in the
// ring) until it exits, and returns its status. In the ring, once the
// program is gone, or once the launcher is (orphaned, from
// [watchParent]), every process of the ring is killed and reaped before
// the leader returns ([killRing], escape class 41).
func leaderWait(cmd *exec.Cmd, ring bool, sigc, orphaned <-chan os.Signal, ppid int, stderr io.Writer) int {
	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()
	for {
		select {
		case sig := <-sigc:
			if s, ok := sig.(syscall.Signal); ok && ring && syscall.Kill(-cmd.Process.Pid, s) == nil {
				continue
			}
			cmd.Process.Signal(sig)
		case <-orphaned:
			if !parentGone(ppid) {
				continue
			}
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			killRing()
			return exit.Signaled(int(syscall.SIGKILL))
		case err := <-waitc:
			if ring {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				killRing()
			}
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				fmt.Fprintf(stderr, "lite-sandbox: launch: %v\n", err)
				return exit.NotExecutable
			}
			return ExitStatus(cmd.ProcessState)
		}
	}
}
