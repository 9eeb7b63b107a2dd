// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestDegraded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ws, home string
		want     bool
		reason   string
	}{
		{"/", "/home/u", true, "workspace / makes the whole filesystem writable"},
		{"/", "", true, "workspace / makes the whole filesystem writable"},
		{"/home/u", "/home/u", true, "workspace /home/u is the home directory: everything in it becomes writable"},
		{"/home/u/", "/home/u", true, "is the home directory"},
		{"/home", "/home/u", true, "workspace /home contains the home directory /home/u: everything under it becomes writable"},
		{"/home/u/project", "/home/u", false, ""},
		{"/home/u2", "/home/u", false, ""},    // sibling
		{"/home/us", "/home/user", false, ""}, // prefix, not ancestor (escape class 2)
		{"/srv/ws", "", false, ""},
	} {
		got, reason := Degraded(c.ws, c.home)
		if got != c.want || !strings.Contains(reason, c.reason) || (!c.want && reason != "") {
			t.Errorf("Degraded(%q, %q) = %v, %q; want %v, %q", c.ws, c.home, got, reason, c.want, c.reason)
		}
	}
}

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	base := Spec{
		Workspace: "/home/u/project",
		Read:      []string{"/nix/store"},
		Write:     []string{"/home/u/.cache"},
		Deny:      []string{"/home/u/project/.secrets"},
	}
	argv := []string{"/bin/sh", "-c", "true"}
	for _, c := range []struct {
		name, cwd string
		argv      []string
		op        string // "" means success
	}{
		{"workspace", "/home/u/project", argv, ""},
		{"default cwd", "", argv, ""},
		{"subdir", "/home/u/project/src", argv, ""},
		{"write grant", "/home/u/.cache/go", argv, ""},
		{"read grant", "/nix/store", argv, ""},
		{"home", "/home/u", argv, "cwd"},
		{"sibling prefix", "/home/u/project2", argv, "cwd"},
		{"root", "/", argv, "cwd"},
		{"relative", "src", argv, "cwd"},
		{"denied", "/home/u/project/.secrets/x", argv, "cwd"},
		{"no argv", "", nil, "argv"},
		{"empty program", "", []string{""}, "argv"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			s.Cwd = c.cwd
			err := checkCommand(s, c.argv)
			if c.op == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *SetupError
			if !errors.As(err, &se) || se.Op != c.op {
				t.Fatalf("err = %v, want a *SetupError with Op %q", err, c.op)
			}
		})
	}
}
