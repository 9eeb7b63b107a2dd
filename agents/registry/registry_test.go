// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package registry

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	t.Parallel()
	if a, err := Lookup("claude"); err != nil || a.Info().Binary != "claude" {
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
	if _, err := a.Info().Path(); err == nil || !strings.Contains(err.Error(), "npm install -g @openai/codex") {
		t.Fatalf("missing binary error = %v", err)
	}
	bin := filepath.Join(dir, "codex")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := a.Info().Path(); err != nil || p != bin {
		t.Fatalf("Path = %q, %v", p, err)
	}
}

// TestInfoNames: every adapter's Info names it as its Name does.
func TestInfoNames(t *testing.T) {
	t.Parallel()
	for _, a := range All() {
		if a.Info().Name != a.Name() {
			t.Errorf("%s: Info().Name = %q", a.Name(), a.Info().Name)
		}
	}
	if got := HookNames(); !slices.Equal(got, []string{"claude", "codex", "crush", "pi"}) {
		t.Errorf("HookNames = %q", got)
	}
}

// TestUnwrap: Claude's wrapper is unwrapped in Claude's sessions and in a
// shim lite-sandbox did not launch, never for another agent.
func TestUnwrap(t *testing.T) {
	t.Parallel()
	const script = `shopt -u extglob 2>/dev/null || true && eval 'git status' < /dev/null && pwd -P >| /tmp/claude-1-cwd`
	for _, agent := range []string{"claude", ""} {
		if cmd, ok := Unwrap(agent, nil, script); !ok || cmd != "git status" {
			t.Errorf("Unwrap(%q) = %q, %v", agent, cmd, ok)
		}
	}
	for _, agent := range []string{"codex", "exec"} {
		if _, ok := Unwrap(agent, nil, script); ok {
			t.Errorf("Unwrap(%q) unwrapped Claude's wrapper", agent)
		}
	}
}
