// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

// Package hostprobe is a probe the tests run inside the sandboxes (the
// command sandbox of run and of a session, the agent ring) and, as the
// positive control, on the host: it walks /proc and /sys and tries to
// open every regular file for writing (escape class 52), takes the first
// step of the core_pattern attack, and lists the descriptors it was
// given (class 57). Only tests import it: a test binary acts as the
// probe when its arguments say so (see [Main]).
package hostprobe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Arg, as a program's first argument, makes a test binary the probe;
// the second is the file that holds its JSON [Spec] (the sandboxes pass
// arguments through, and the workspace, but not every environment
// variable).
const Arg = "-lite-sandbox-hostprobe"

// Spec says what one run checks; Out is where its [Report] goes.
type Spec struct {
	// Roots are walked for files that open for writing.
	Roots []string `json:"roots,omitempty"`
	// Workspace, when set, is a directory the probe creates a file in:
	// the positive control that writing works at all in the same run.
	Workspace string `json:"workspace,omitempty"`
	// Sysctl takes the attack's first step: open kernel.core_pattern
	// for writing (never written), and kernel.hostname; with WriteSame,
	// a hostname that opens gets its own value written back (no change
	// even where it would reach the host). The host control leaves
	// WriteSame off: it only opens, then closes.
	Sysctl    bool `json:"sysctl,omitempty"`
	WriteSame bool `json:"write_same,omitempty"`
	// FDs lists the descriptors from 3 up that the probe was started
	// with.
	FDs bool   `json:"fds,omitempty"`
	Out string `json:"out"`
}

// Report is what the probe found.
type Report struct {
	Walks       map[string]Walk `json:"walks,omitempty"`
	Workspace   string          `json:"workspace,omitempty"`
	CorePattern string          `json:"core_pattern,omitempty"`
	Hostname    string          `json:"hostname,omitempty"`
	FDs         []Descriptor    `json:"fds,omitempty"`
}

// Main runs the probe when the program's arguments are [Arg] and a
// spec file, and reports false otherwise: a test binary's TestMain calls
// it first.
func Main() (code int, handled bool) {
	if len(os.Args) != 3 || os.Args[1] != Arg {
		return 0, false
	}
	raw, err := os.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintf(os.Stderr, "hostprobe: %v\n", err)
		return 2, true
	}
	var s Spec
	if err := json.Unmarshal(raw, &s); err != nil {
		fmt.Fprintf(os.Stderr, "hostprobe: %v\n", err)
		return 2, true
	}
	var r Report
	if s.FDs {
		// First: the spec's own descriptor is closed, and nothing else
		// is open but the Go runtime's poller.
		r.FDs = Descriptors()
	}
	if len(s.Roots) > 0 {
		r.Walks = map[string]Walk{}
		for _, root := range s.Roots {
			r.Walks[root] = WalkWritable(root, walkLimit)
		}
	}
	if s.Workspace != "" {
		r.Workspace = did(os.WriteFile(filepath.Join(s.Workspace, ".hostprobe-control"), []byte("x"), 0o644))
	}
	if s.Sysctl {
		r.CorePattern = did(openOnly("/proc/sys/kernel/core_pattern"))
		r.Hostname = did(hostname(s.WriteSame))
	}
	b, _ := json.Marshal(r)
	if err := os.WriteFile(s.Out, b, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "hostprobe: %v\n", err)
		return 1, true
	}
	return 0, true
}

// walkLimit bounds one walk: /sys holds some ten thousand files, /proc
// of a sandbox a few thousand; a walk that reaches it says so
// (Truncated), and the tests fail on it rather than pass on a part.
const walkLimit = 500000

// did is "yes" for a nil error, else "no: " and the error.
func did(err error) string {
	if err == nil {
		return "yes"
	}
	return "no: " + err.Error()
}
