// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/procstat"
)

// proc is one process found in /proc: its pid and its start time (in
// clock ticks since boot), which together name it even after its pid
// is reused.
type proc struct {
	pid   int
	start string
}

// descendants lists the live processes below root (zombies are dead
// already), from one walk of /proc.
func descendants(root int) []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, start, live, ok := procstat.Identity(pid); ok && live {
			children[ppid] = append(children[ppid], proc{pid, start})
		}
	}
	var out []proc
	queue := []int{root}
	for len(queue) > 0 {
		for _, c := range children[queue[0]] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
		queue = queue[1:]
	}
	return out
}

// killProc sends SIGKILL to p through a pidfd: the pidfd names the
// process that has p's pid when it is opened, and p's start time read
// after that says it is still the one the walk found, not a process of
// someone else that got the pid since.
func killProc(p proc) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if err != nil {
		return // gone
	}
	defer unix.Close(fd)
	if _, start, _, ok := procstat.Identity(p.pid); !ok || start != p.start {
		return
	}
	unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
}
