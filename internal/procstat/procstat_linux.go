// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package procstat reads a process's parent from /proc, for the judge
// (the agent process behind a shim) and the terminal (is a caller the
// ring's agent).
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
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
