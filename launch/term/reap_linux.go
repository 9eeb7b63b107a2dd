// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DieWithParent makes the process attr starts get SIGKILL when its
// parent dies: the leader's program (bwrap, or the Landlock ring's
// confinement step) when the leader dies. bwrap's --die-with-parent
// takes its PID namespace with it, so no process of bwrap's ring
// outlives the session (escape class 41).
func DieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// LeaderDiesWithParent gives the pty leader attr starts the parent-death
// signal it catches ([watchParent]) rather than SIGKILL: a leader killed
// outright could not kill the ring, and without a PID namespace (the
// Landlock ring) a daemon of the agent would outlive a launcher killed
// with SIGKILL (escape class 41). Set at fork, it is the main thread's
// and survives the exec (a prctl of the leader's own would be the
// thread's that runs it: Go's other threads would keep the SIGKILL).
// A Go program ignores it until it asks for it: a launcher that dies
// before the leader's first lines (before it starts anything) leaves the
// leader running the ring until its program exits, when it kills all
// of it.
func LeaderDiesWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = parentDeathSignal }

// becomeSubreaper makes the caller the reaper of its orphaned
// descendants: the ring's init (bwrap's PID 1) is re-parented to the
// leader when bwrap's outer process dies first, and so is every process
// of the Landlock ring (which has no PID namespace) whose parent exits,
// a daemon that made a session of its own (setsid) or double-forked too:
// nothing of the ring leaves the leader's tree, so that [killRing] finds
// all of it (escape class 41).
func becomeSubreaper() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// parentDeathSignal is the pty leader's parent-death signal
// ([LeaderDiesWithParent]).
const parentDeathSignal = unix.SIGUSR1

// watchParent returns the channel the leader's parent-death signal
// arrives on ([LeaderDiesWithParent]) and the parent it is meant for.
func watchParent() (<-chan os.Signal, int) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, parentDeathSignal)
	return c, os.Getppid()
}

// parentGone says whether the leader's parent is no longer ppid: the
// signal of [watchParent] came from its death, not from a process that
// sent it (a ring process below Landlock ABI 6 may signal the leader).
func parentGone(ppid int) bool { return os.Getppid() != ppid }

// killRing kills every process below the caller and reaps it, to a
// fixed point, then returns: only then may the launcher remove
// placeholders or restore files (escape class 41). The caller is the
// ring's subreaper ([becomeSubreaper]), so a process below it whose
// parent dies becomes its child, and it has no child at all only when
// nothing is left below it: the loop ends on ECHILD, never on a walk of
// /proc that a fork during the walk could fool. Each round kills what
// the walk finds ([descendants]: a killed process forks no more) and
// reaps what died; a process started behind the walk is found by the
// next round.
func killRing() {
	self := os.Getpid()
	pause := time.Millisecond
	for {
		if reapDead() {
			return
		}
		for _, p := range descendants(self) {
			killProc(p)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// reapDead reaps every child that has exited and says whether the
// caller has no child left.
func reapDead() bool {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		switch {
		case err == unix.ECHILD:
			return true
		case err == unix.EINTR:
			continue
		case err != nil || pid == 0:
			return false
		}
	}
}
