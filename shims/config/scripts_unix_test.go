// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWorkspaceScripts: the validator reads the script files commands
// name only inside the workspace (symlinks resolved), only regular
// files of a bounded size, and a FIFO never blocks the judge (issue
// #26, finding 5).
func TestWorkspaceScripts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws, outside := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, "x.sh"), "npm publish\n")
	write(filepath.Join(outside, "o.sh"), "npm publish\n")
	write(filepath.Join(ws, "big.sh"), strings.Repeat("#", maxScriptFile+1))
	if err := os.Symlink(filepath.Join(outside, "o.sh"), filepath.Join(ws, "link.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("x.sh", filepath.Join(ws, "in.sh")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := workspaceScripts(ws)
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{filepath.Join(ws, "x.sh"), true},  // control
		{filepath.Join(ws, "in.sh"), true}, // a link inside the workspace
		{filepath.Join(outside, "o.sh"), false},
		{filepath.Join(ws, "link.sh"), false},
		{filepath.Join(ws, "big.sh"), false},
		{filepath.Join(ws, "fifo.sh"), false},
		{filepath.Join(ws, "missing.sh"), false},
		{ws, false},
	} {
		text, ok := read(c.name)
		if ok != c.ok || (ok && text != "npm publish\n") {
			t.Errorf("read %s: %v %q, want %v", c.name, ok, text, c.ok)
		}
	}
	if workspaceScripts("") != nil {
		t.Error("a reader without a workspace")
	}
}
