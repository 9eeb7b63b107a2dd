// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// DieWithParent makes the process attr starts get SIGKILL when its
// parent dies: a launcher killed with SIGKILL takes the pty leader, the
// leader takes bwrap, and bwrap's --die-with-parent its PID namespace,
// so no process of the ring outlives the session (escape class 41).
func DieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// becomeSubreaper makes the caller the reaper of its orphaned
// descendants: the ring's init (bwrap's PID 1) is re-parented to the
// leader when bwrap's outer process dies first, so that [reapAll] can
// wait for the whole ring.
func becomeSubreaper() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// reapAll waits for every child of the caller until none is left. The
// ring's init exits only once its PID namespace is empty, so when
// reapAll returns in the leader no process of the ring is alive: only
// then may the launcher remove placeholders or restore files.
func reapAll() {
	for {
		var ws unix.WaitStatus
		if _, err := unix.Wait4(-1, &ws, 0, nil); err == unix.ECHILD {
			return
		} else if err != nil && err != unix.EINTR {
			return
		}
	}
}
