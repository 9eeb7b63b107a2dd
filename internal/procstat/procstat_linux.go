// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package procstat reads a process's parent from /proc, for the judge
// (the agent process behind a shim) and the terminal (is a caller the
// ring's agent), and its process group, for the egress proxy (which
// command holds a connection).
package procstat

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Parent reads pid's parent from /proc/PID/stat (the field after the
// command name, which may itself hold spaces and parentheses), or 0.
func Parent(pid int) int {
	f := statFields(pid)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// Group reads pid's process group from /proc/PID/stat (the field after
// the parent), or 0.
func Group(pid int) int {
	f := statFields(pid)
	if len(f) < 3 {
		return 0
	}
	g, _ := strconv.Atoi(f[2])
	return g
}

// statFields returns the fields of /proc/PID/stat after the command
// name (the state first), or nil.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// Identity reads pid's parent, its start time (clock ticks since boot:
// with the pid it names the process even after the pid is reused) and
// whether it is alive (not a zombie); ok is false when pid is gone.
func Identity(pid int) (parent int, start string, alive, ok bool) {
	// The state first, the parent second, the start time 20th
	// (field 22 of proc(5)).
	f := statFields(pid)
	if len(f) < 20 {
		return 0, "", false, false
	}
	parent, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, "", false, false
	}
	return parent, f[19], f[0] != "Z" && f[0] != "X", true
}
