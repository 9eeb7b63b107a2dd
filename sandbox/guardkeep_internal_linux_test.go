// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
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
			s := Spec{Workspace: ws, Protect: []Protected{{Path: filepath.Join(ws, ".git/config")}, {Path: filepath.Join(ws, ".git/hooks"), Dir: true}}}
			ks, missing, err := keptPaths(s)
			if err != nil || len(ks) != 2 || len(missing) != 0 {
				t.Fatalf("keptPaths: %d kept, %v missing, %v", len(ks), missing, err)
			}
			g, err := startKeeping(nil, ks, qdir)
			if err != nil {
				t.Fatal(err)
			}
			// Control: an ordinary file.
			mustWriteT(t, filepath.Join(ws, "main.go"), "package other\n", 0o644)
			if err := tt.change(ws); err != nil {
				t.Fatal(err)
			}
			moved := g.stop()
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
	ks, _, err := keptPaths(Spec{Workspace: ws, Protect: []Protected{{Path: filepath.Join(ws, ".envrc")}}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := startKeeping(nil, ks, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if moved := g.stop(); len(moved) != 0 {
		t.Errorf("reported with nothing changed: %v", moved)
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

// TestKeptRecord (#28): the first sandbox of a workspace records its
// copies; the last one to end checks the protected paths against them
// (a change made while a later sandbox still ran is put back when the
// last ends, not before), and after a killed launcher (its lock dropped,
// the record left) the next sandbox puts them back before its own copy.
// Control: the not-last release restores nothing.
func TestKeptRecord(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	ws, qdir := filepath.Join(top, "ws"), filepath.Join(top, "q")
	cfg := filepath.Join(ws, ".git/config")
	mustWriteT(t, cfg, "[core]\n", 0o644)
	s := Spec{Workspace: ws, Protect: []Protected{{Path: cfg}}}
	take := func() *wsLock {
		t.Helper()
		l := lockWorkspace(ws)
		if l == nil {
			t.Skip("no private directory for locks")
		}
		ks, _, err := keptPaths(s)
		if err != nil {
			t.Fatal(err)
		}
		shareKept(l, ks, qdir)
		return l
	}
	first := take()
	second := take()
	if !first.first || second.first {
		t.Fatalf("first %v, second %v", first.first, second.first)
	}
	mustWriteT(t, cfg, "evil\n", 0o644)
	if moved := second.release(); len(moved) != 0 {
		t.Errorf("control: a release that is not the last restored: %v", moved)
	}
	checkFile(t, cfg, "evil\n", 0o644)
	if moved := first.release(); len(moved) != 1 || !moved[0].Restored {
		t.Errorf("the last release: %v", moved)
	}
	checkFile(t, cfg, "[core]\n", 0o644)

	// A killed launcher: its lock goes with it, its record stays.
	crashed := take()
	crashed.f.Close()
	mustWriteT(t, cfg, "evil\n", 0o644)
	next := lockWorkspace(ws)
	if len(next.swept) != 1 || !next.swept[0].Restored {
		t.Errorf("after the crash: %v", next.swept)
	}
	checkFile(t, cfg, "[core]\n", 0o644)
	next.release()
}
