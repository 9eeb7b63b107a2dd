// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	if a, err := Lookup("claude"); err != nil || a.Binary != "claude" {
		t.Fatalf("claude: %v %v", a, err)
	}
	_, err := Lookup("gpt-shell")
	if err == nil || !strings.Contains(err.Error(), "claude, codex, crush, pi") {
		t.Fatalf("unknown agent error = %v", err)
	}
}

func TestPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	a, _ := Lookup("codex")
	if _, err := a.Path(); err == nil || !strings.Contains(err.Error(), "npm install -g @openai/codex") {
		t.Fatalf("missing binary error = %v", err)
	}
	bin := filepath.Join(dir, "codex")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := a.Path(); err != nil || p != bin {
		t.Fatalf("Path = %q, %v", p, err)
	}
}
