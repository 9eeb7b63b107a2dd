// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"github.com/lite-sandbox/lite-sandbox/internal/procstat"
	"os"
	"strconv"
	"strings"
)

// IsAgent reports whether pid (in the launcher's PID namespace) is the
// agent of the launch whose terminal this process owns: the first
// program of its ring, pid 2 in the ring's own PID namespace (bwrap's
// init is 1), one namespace below the launcher's, and a descendant of
// the pty's leader. A process the agent started (an MCP server, a
// shell) has another pid there; one in a namespace it made itself is
// deeper. The agent's questions are posed only by it
// (docs/validator.md §8.2).
func IsAgent(pid int) bool {
	j := current.Load()
	if j == nil || !j.ring || pid <= 1 {
		return false
	}
	mine, its := nsPids("self"), nsPids(strconv.Itoa(pid))
	if len(mine) == 0 || len(its) != len(mine)+1 || its[len(its)-1] != "2" {
		return false
	}
	leader := j.leader.Process.Pid
	for p, i := pid, 0; i < 4 && p > 1; i++ {
		if p = procstat.Parent(p); p == leader {
			return true
		}
	}
	return false
}

// nsPids is the NSpid line of /proc/PID/status: the process's pid in
// each PID namespace it is in, outermost first.
func nsPids(pid string) []string {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return nil
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "NSpid:"); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}
