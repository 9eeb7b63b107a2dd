// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package git

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGitCopies: the files that are git are found by comparing with the
// git binary (a hard link, a symlink to it, a byte-identical copy), not
// by name; a git-* program that is another binary, even of git's size,
// is left alone (#25, class 59).
func TestGitCopies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, core := filepath.Join(dir, "bin"), filepath.Join(dir, "core")
	for _, d := range []string{bin, core} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git := filepath.Join(bin, "git")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(git, "GIT-BINARY")
	write(filepath.Join(core, "git"), "GIT-BINARY")          // a copy
	write(filepath.Join(core, "git-shell"), "OTHER-BINARY")  // another program
	write(filepath.Join(core, "git-remote"), "GIT-BINARX")   // git's size, other bytes
	write(filepath.Join(core, "renamed-tool"), "GIT-BINARY") // a copy under any name
	if err := os.Link(git, filepath.Join(core, "git-upload-pack")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("git", filepath.Join(core, "git-receive-pack")); err != nil {
		t.Fatal(err)
	}
	got := Copies([]string{git}, []string{bin, core, "relative"})
	want := []string{git, filepath.Join(core, "git"), filepath.Join(core, "git-upload-pack"), filepath.Join(core, "renamed-tool")}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Copies = %q, want %q", got, want)
	}
	// Positive control: with no git to compare with, nothing is git.
	if got := Copies(nil, []string{bin, core}); len(got) != 0 {
		t.Errorf("Copies without a git = %q, want none", got)
	}
}
