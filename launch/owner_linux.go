// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// The session's owner (its pid file, stale directories) and the
// sandbox's processes, read from /proc.

// killSandbox kills the sandbox run by bwrap process p. It kills the
// sandbox's init (bwrap's child, PID 1 of the namespace) rather than p:
// the kernel kills every process of the namespace before the init's exit
// is reported, and bwrap exits only after that, so once the supervisor's
// Wait returns nothing of the sandbox is left. Killing p alone would end
// the rest through PR_SET_PDEATHSIG, but asynchronously.
func killSandbox(p *os.Process) {
	if pid := childOf(p.Pid); pid > 0 {
		if fd, err := unix.PidfdOpen(pid, 0); err == nil {
			// Checked after opening the pidfd, which pins the process:
			// the pid still belongs to the child of p.
			killed := ppid(pid) == p.Pid && unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil
			unix.Close(fd)
			if killed {
				// Not p too: bwrap would then be reported gone before
				// the namespace is.
				return
			}
		}
	}
	p.Kill() // through a pidfd: safe even if p has just exited
}

// childOf returns a child of pid, or 0. bwrap has exactly one.
func childOf(pid int) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range ents {
		c, err := strconv.Atoi(e.Name())
		if err == nil && ppid(c) == pid {
			return c
		}
	}
	return 0
}

// statFields returns the fields of /proc/<pid>/stat after the command
// name (which may hold spaces and parentheses): state is [0], ppid [1],
// starttime [19].
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

// ppid returns the parent of pid, or -1.
func ppid(pid int) int {
	f := statFields(pid)
	if len(f) < 2 {
		return -1
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return n
}

// startTime returns the start time of pid (clock ticks since boot), which
// tells a process from a later one with the same pid.
func startTime(pid int) string {
	f := statFields(pid)
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// ownerRecord is the pid file's content: "<pid> <start time>".
func ownerRecord() []byte {
	pid := os.Getpid()
	return []byte(strconv.Itoa(pid) + " " + startTime(pid) + "\n")
}

// ownerAlive reads a pid file's content. Anything unclear counts as
// alive: a live session must never lose its directory.
func ownerAlive(rec []byte) bool {
	f := strings.Fields(string(rec))
	if len(f) == 0 {
		return true
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return true
	}
	if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
		return false
	}
	if len(f) > 1 && f[1] != "" {
		if st := startTime(pid); st != "" && st != f[1] {
			return false // the pid now belongs to another process
		}
	}
	return true
}

// cleanStale removes the session directories in root whose owner died
// (killed before Close). Their sandboxes died with them (bwrap's
// --die-with-parent), so this only removes files; it kills nothing.
func cleanStale(root string) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "s-") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		rec, err := os.ReadFile(filepath.Join(dir, contract.PidName))
		if err != nil || ownerAlive(rec) {
			continue
		}
		if contract.CheckPrivate(dir, true) != nil {
			continue
		}
		os.RemoveAll(dir)
	}
}
