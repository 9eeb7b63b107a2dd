// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepRestores (#28): the guard of the Landlock backend puts an
// existing protected path back from the copy it took at start however
// it was changed (rewritten, replaced by a link, removed, a file added
// to a protected directory, .git swapped for a link to a copy), with
// the file byte-identical and its mode kept, and reports it with the
// changed version in the quarantine; a .git swapped for a link is moved
// to the quarantine (nothing is restored into a directory that is not
// there: the host's git finds no repository). Control: an ordinary file changed
// beside it is left alone and nothing is reported.
func TestKeepRestores(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		change  func(ws string) error
		changed string // the path reported restored
	}{
		{"rewritten", func(ws string) error { return os.WriteFile(filepath.Join(ws, ".git/config"), []byte("evil"), 0o644) }, ".git/config"},
		{"chmod", func(ws string) error { return os.Chmod(filepath.Join(ws, ".git/config"), 0o777) }, ".git/config"},
		{"link", func(ws string) error {
			// Atomically: the guard runs meanwhile.
			p := filepath.Join(ws, ".git/config")
			return errJoin(os.Symlink("/etc/passwd", p+".new"), os.Rename(p+".new", p))
		}, ".git/config"},
		{"removed", func(ws string) error { return os.Remove(filepath.Join(ws, ".git/config")) }, ".git/config"},
		{"hook added", func(ws string) error {
			return os.WriteFile(filepath.Join(ws, ".git/hooks/post-checkout"), []byte("evil"), 0o755)
		}, ".git/hooks"},
		{".git a link", func(ws string) error {
			g, c := filepath.Join(ws, ".git"), filepath.Join(ws, "copy")
			return errJoin(os.Rename(g, c), os.WriteFile(filepath.Join(c, "config"), []byte("evil"), 0o644), os.Symlink("copy", g))
		}, ".git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			top := t.TempDir()
			ws, qdir := filepath.Join(top, "ws"), filepath.Join(top, "q")
			mustWriteT(t, filepath.Join(ws, ".git/config"), "[core]\n", 0o600)
			mustWriteT(t, filepath.Join(ws, ".git/hooks/pre-commit"), "#!/bin/sh\n", 0o755)
			mustWriteT(t, filepath.Join(ws, "main.go"), "package main\n", 0o644)
			ks := take(t, ws, ".git/config", ".git/hooks")
			g, err := Start(nil, ks, qdir)
			if err != nil {
				t.Fatal(err)
			}
			// Control: an ordinary file.
			mustWriteT(t, filepath.Join(ws, "main.go"), "package other\n", 0o644)
			if err := tt.change(ws); err != nil {
				t.Fatal(err)
			}
			moved := g.Stop()
			if b, err := os.ReadFile(filepath.Join(ws, "main.go")); err != nil || string(b) != "package other\n" {
				t.Errorf("control: main.go %q, %v", b, err)
			}
			if tt.changed == ".git" {
				if _, err := os.Lstat(filepath.Join(ws, ".git")); err == nil {
					t.Error(".git (a link) is still there")
				}
			} else {
				checkFile(t, filepath.Join(ws, ".git/config"), "[core]\n", 0o600)
				checkFile(t, filepath.Join(ws, ".git/hooks/pre-commit"), "#!/bin/sh\n", 0o755)
				if _, err := os.Lstat(filepath.Join(ws, ".git/hooks/post-checkout")); err == nil {
					t.Error("the added hook is still there")
				}
			}
			found := false
			for _, q := range moved {
				if q.Restored == (tt.changed != ".git") && q.Path == filepath.Join(ws, tt.changed) {
					found = true
				}
			}
			if !found {
				t.Errorf("no restore of %s reported: %v", tt.changed, moved)
			}
		})
	}
}

// TestKeepControl: nothing changed, nothing reported.
func TestKeepControl(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	mustWriteT(t, filepath.Join(ws, ".envrc"), "x\n", 0o644)
	g, err := Start(nil, take(t, ws, ".envrc"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if moved := g.Stop(); len(moved) != 0 {
		t.Errorf("reported with nothing changed: %v", moved)
	}
}

// take copies the paths (relative to ws) that must exist.
func take(t *testing.T, ws string, rels ...string) []Kept {
	t.Helper()
	c := NewCopier()
	var ks []Kept
	for _, rel := range rels {
		k, err := c.Take(ws, filepath.Join(ws, rel))
		if err != nil || k == nil {
			t.Fatalf("Take %s: %v, %v", rel, k, err)
		}
		ks = append(ks, *k)
	}
	return ks
}

// TestCopierBudget: the copies of one sandbox stop at keptMax, with an
// error naming the path; a path that is not below the root is refused.
// Control: a missing path is no copy and no error.
func TestCopierBudget(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	big := filepath.Join(ws, "big")
	if err := os.WriteFile(big, make([]byte, keptMax/2+1), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCopier()
	if k, err := c.Take(ws, filepath.Join(ws, "missing")); k != nil || err != nil {
		t.Errorf("control: a missing path: %v, %v", k, err)
	}
	if _, err := c.Take(ws, big); err != nil {
		t.Fatalf("the first half: %v", err)
	}
	if _, err := c.Take(ws, big); err == nil || !strings.Contains(err.Error(), big) {
		t.Errorf("over the budget: %v", err)
	}
	if _, err := NewCopier().Take(ws, ws); err == nil {
		t.Error("the root itself was taken")
	}
}

func errJoin(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func mustWriteT(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func checkFile(t *testing.T, p, want string, mode os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != mode {
		t.Errorf("%s: %v, %v; want a regular file, mode %v", p, fi, err, mode)
		return
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != want {
		t.Errorf("%s: %q, %v; want %q", p, b, err, want)
	}
}
