// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package pathlook finds a program in the PATH of a command's own
// environment, as a shell does: the one lookup of the in-sandbox
// confine step and of the session worker, which both exec a command
// whose environment is not their own.
package pathlook

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// DefaultPath is searched when the environment has no PATH.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

var (
	// ErrNotFound: no file of that name in any PATH directory.
	ErrNotFound = errors.New("command not found")
	// ErrNotExecutable: found, but not executable (a shell's 126).
	ErrNotExecutable = errors.New("permission denied")
)

// NotFound is the message for a program that is not found. A single
// argument that reads as a command line (`run -- 'make && make check'`)
// gets the way out: the shell's -c (issue 31).
func NotFound(argv []string) string {
	msg := argv[0] + ": command not found"
	if len(argv) == 1 && strings.ContainsAny(argv[0], " \t|&;<>()$`*\n") {
		msg += "; to run it as a shell command line, pass it to a shell: -- sh -c '" + strings.ReplaceAll(argv[0], "'", `'\''`) + "'"
	}
	return msg
}

// Find returns the first executable file called name in the PATH of env
// (the last PATH= entry wins, as in os/exec). An empty PATH element is
// the current directory, and relative elements are taken against dir
// when dir is not "". A name with a slash is returned as it is.
func Find(name string, env []string, dir string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	pathEnv := DefaultPath
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	denied := false
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, name)
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if !executable(p) {
			denied = true
			continue
		}
		return p, nil
	}
	if denied {
		return "", ErrNotExecutable
	}
	return "", ErrNotFound
}
