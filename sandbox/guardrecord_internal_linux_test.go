// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/guard"
)

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
	writeCfg(t, cfg, "[core]\n")
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
		guard.Share(l.first, keptRecord(l.record), ks, qdir)
		return l
	}
	first := take()
	second := take()
	if !first.first || second.first {
		t.Fatalf("first %v, second %v", first.first, second.first)
	}
	writeCfg(t, cfg, "evil\n")
	if moved := second.release(); len(moved) != 0 {
		t.Errorf("control: a release that is not the last restored: %v", moved)
	}
	checkCfg(t, cfg, "evil\n")
	if moved := first.release(); len(moved) != 1 || !moved[0].Restored {
		t.Errorf("the last release: %v", moved)
	}
	checkCfg(t, cfg, "[core]\n")

	// A killed launcher: its lock goes with it, its record stays.
	crashed := take()
	crashed.f.Close()
	writeCfg(t, cfg, "evil\n")
	next := lockWorkspace(ws)
	if len(next.swept) != 1 || !next.swept[0].Restored {
		t.Errorf("after the crash: %v", next.swept)
	}
	checkCfg(t, cfg, "[core]\n")
	next.release()
}

func writeCfg(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkCfg(t *testing.T, p, want string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != want {
		t.Errorf("%s: %q, %v; want %q", p, b, err, want)
	}
}
