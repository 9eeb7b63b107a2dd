// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKept: the kept data files are copied into the scratch and back,
// with a new one of such a name; a link of such a name, and any other
// name, never reach the real directory; the control: the data file the
// session changed is changed on the host.
func TestKept(t *testing.T) {
	real, scratch := t.TempDir(), t.TempDir()
	k := kept{dir: real, patterns: []string{"history.jsonl", "*.sqlite"}}
	os.WriteFile(filepath.Join(real, "history.jsonl"), []byte("old\n"), 0o600)
	os.WriteFile(filepath.Join(real, "settings.json"), []byte("{}"), 0o600)
	if err := copyKept(k, scratch); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(scratch, "history.jsonl")); string(b) != "old\n" {
		t.Fatalf("not copied in: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(scratch, "settings.json")); err == nil {
		t.Error("settings.json copied into the scratch")
	}
	// The session: replaces the history atomically, makes a database, a
	// link named like one, and a file of another name.
	os.WriteFile(filepath.Join(scratch, "h.tmp"), []byte("new\n"), 0o600)
	os.Rename(filepath.Join(scratch, "h.tmp"), filepath.Join(scratch, "history.jsonl"))
	os.WriteFile(filepath.Join(scratch, "state_5.sqlite"), []byte("db"), 0o600)
	os.Symlink(filepath.Join(real, "settings.json"), filepath.Join(scratch, "evil.sqlite"))
	os.WriteFile(filepath.Join(scratch, "config.toml"), []byte("evil"), 0o600)
	var w bytes.Buffer
	persistKept(&w, k, scratch)
	if b, _ := os.ReadFile(filepath.Join(real, "history.jsonl")); string(b) != "new\n" {
		t.Errorf("history not kept: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "state_5.sqlite")); string(b) != "db" {
		t.Errorf("new database not kept: %q", b)
	}
	for _, n := range []string{"evil.sqlite", "config.toml"} {
		if _, err := os.Lstat(filepath.Join(real, n)); err == nil {
			t.Errorf("%s reached the real directory", n)
		}
	}
	if strings.Contains(w.String(), "could not") {
		t.Errorf("messages: %q", w.String())
	}
}
