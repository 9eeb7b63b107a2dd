// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetectBinaryCachesByIdentity(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	count := filepath.Join(dir, "count")
	bin := filepath.Join(dir, "codex")
	script := "#!/bin/sh\necho x >> " + count + "\necho codex-cli 1.0.0\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	a := Info{Name: "codex", Binary: "codex", Install: "npm install -g @openai/codex"}
	for range 3 {
		d, err := a.DetectBinary(t.Context(), "--version")
		if err != nil || d.Version != "codex-cli 1.0.0" || d.Path != bin {
			t.Fatalf("DetectBinary = %+v, %v", d, err)
		}
	}
	if b, _ := os.ReadFile(count); strings.Count(string(b), "x") != 1 {
		t.Fatalf("the binary ran %d times, want once (cached afterwards)", strings.Count(string(b), "x"))
	}
	// A reinstall (a new file, another version) is probed again.
	os.Remove(bin)
	if err := os.WriteFile(bin, []byte(strings.Replace(script, "1.0.0", "2.0.0", 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := a.DetectBinary(t.Context(), "--version")
	if err != nil || d.Version != "codex-cli 2.0.0" {
		t.Fatalf("after reinstall: %+v, %v", d, err)
	}
}
