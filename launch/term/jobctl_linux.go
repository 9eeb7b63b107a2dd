// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// procStat is what jobStopped needs of /proc/PID/stat.
type procStat struct {
	state byte
	pgrp  int
}

func readProcStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// The command name (field 2) is in parentheses and may hold anything,
	// so the fields are counted from the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return procStat{}, false
	}
	pg, err := strconv.Atoi(f[2])
	if err != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], pgrp: pg}, true
}

// children lists pid's children, over all of its threads (a child
// started from another thread is that thread's child in /proc).
func children(pid int) []int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// jobStopped reports whether the agent, in process group pgrp below the
// pty's session leader, is stopped. The agent is the leader's child, or,
// when a wrapper started it (bwrap, without a PID namespace, stays its
// parent), that wrapper's only child in the group, and so on down: the
// walk follows that chain and stops where it forks out, so a stopped
// helper process of the agent's does not count.
func jobStopped(leader, pgrp int) bool {
	pid := 0
	for _, c := range children(leader) {
		if st, ok := readProcStat(c); ok && st.pgrp == pgrp {
			pid = c
			break
		}
	}
	for depth := 0; pid > 0 && depth < 8; depth++ {
		st, ok := readProcStat(pid)
		if !ok || st.pgrp != pgrp {
			return false
		}
		if st.state == 'T' {
			return true
		}
		next := 0
		for _, c := range children(pid) {
			if cs, ok := readProcStat(c); ok && cs.pgrp == pgrp {
				if next != 0 {
					return false // the agent's own children
				}
				next = c
			}
		}
		pid = next
	}
	return false
}

// defaultSignal sets sig's disposition to the default action (SIG_DFL)
// behind the Go runtime's back and returns the function that puts the
// previous one back. The kernel's struct sigaction is handled as opaque
// bytes: all zeroes is SIG_DFL with no flags in every layout.
func defaultSignal(sig unix.Signal) func() {
	var dfl, old [64]byte
	_, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), uintptr(unsafe.Pointer(&old)), sigsetSize, 0, 0)
	if e != 0 {
		return func() {}
	}
	return func() {
		unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&old)), 0, sigsetSize, 0, 0)
	}
}
