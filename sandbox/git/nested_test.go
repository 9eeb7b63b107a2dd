// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package git

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNestedChanged: a repository made below the workspace, a gitlink
// file and a submodule's git directory in .git/modules are found and
// reported as changed; the workspace's own .git is not, and nothing is
// reported when nothing changed (the control).
func TestNestedChanged(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".git/config", "")
	before := Nested(ws)
	if len(before) != 0 {
		t.Fatalf("the workspace's own .git counted: %v", before)
	}
	if got := Changed(before, Nested(ws)); len(got) != 0 {
		t.Errorf("nothing changed, yet %v", got)
	}
	write("sub/.git/HEAD", "ref: refs/heads/main\n")
	write("sub/.git/config", "[core]\n")
	write("link/.git", "gitdir: ../.git/modules/m\n")
	write(".git/modules/m/HEAD", "ref: refs/heads/main\n")
	write(".git/modules/m/config", "")
	if err := os.MkdirAll(filepath.Join(ws, ".git/modules/m/objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := Changed(before, Nested(ws))
	want := []string{".git/modules/m", "link/.git", "sub/.git"}
	if !slices.Equal(got, want) {
		t.Errorf("Changed = %q, want %q", got, want)
	}
	if !IsDir(filepath.Join(ws, ".git/modules/m")) || IsDir(filepath.Join(ws, "sub")) {
		t.Error("IsDir: a git directory not told from a plain one")
	}
}
