// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package pathlook

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b, filepath.Join(dir, "a", "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(a, "tool"), 0o644) // not executable: skipped
	write(filepath.Join(b, "tool"), 0o755)
	write(filepath.Join(a, "noexec"), 0o644)
	write(filepath.Join(a, "sub", "rel"), 0o755)
	env := []string{"PATH=/nonexistent", "PATH=" + a + ":" + b + ":sub"}
	for _, tc := range []struct {
		name, dir, want string
		err             error
	}{
		{"tool", "", filepath.Join(b, "tool"), nil},
		{"./x/y", "", "./x/y", nil},
		{"rel", a, filepath.Join(a, "sub", "rel"), nil},
		{"noexec", "", "", ErrNotExecutable},
		{"missing", "", "", ErrNotFound},
		{"sub", "", "", ErrNotFound}, // a directory is no program
	} {
		got, err := Find(tc.name, env, tc.dir)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Find(%q, dir %q) = %q, %v; want %q, %v", tc.name, tc.dir, got, err, tc.want, tc.err)
		}
	}
	if os.Geteuid() == 0 {
		t.Log("as root, access(X_OK) still needs an execute bit, so the cases above hold")
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"nosuch"}, "nosuch: command not found"},
		{[]string{"nosuch", "a b"}, "nosuch: command not found"},
		{[]string{"make && make check"}, "make && make check: command not found; to run it as a shell command line, pass it to a shell: -- sh -c 'make && make check'"},
		{[]string{"echo 'x'"}, `echo 'x': command not found; to run it as a shell command line, pass it to a shell: -- sh -c 'echo '\''x'\'''`},
	} {
		if got := NotFound(tc.argv); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.argv, got, tc.want)
		}
	}
}
