// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package guard

import (
	"os"
	"path/filepath"
	"testing"
)

// TestQuarantineNoLinks: the guard moves what stands at a protected path
// below the workspace, but never through a link a sandbox put on the
// way (it could swap a directory for one between the check and the
// move): a file outside the workspace stays where it is. Control: the
// same path through a real directory is moved to the quarantine.
func TestQuarantineNoLinks(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	ws, outside, qdir := filepath.Join(top, "ws"), filepath.Join(top, "outside"), filepath.Join(top, "q")
	for _, d := range []string{filepath.Join(ws, "real"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(outside, "b"), filepath.Join(ws, "real", "b")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	if q, ok := quarantine(ws, filepath.Join(ws, "link", "b"), qdir); ok {
		t.Errorf("moved through a link: %v", q)
	}
	if _, err := os.Lstat(filepath.Join(outside, "b")); err != nil {
		t.Errorf("the file outside the workspace moved: %v", err)
	}
	q, ok := quarantine(ws, filepath.Join(ws, "real", "b"), qdir)
	if !ok || filepath.Dir(q.To) != qdir {
		t.Fatalf("control: real/b not quarantined: %v %v", q, ok)
	}
	if _, err := os.Lstat(filepath.Join(ws, "real", "b")); err == nil {
		t.Error("control: real/b still in the workspace")
	}
	if b, err := os.ReadFile(q.To); err != nil || string(b) != "x" {
		t.Errorf("control: quarantined copy %q, %v", b, err)
	}
}
