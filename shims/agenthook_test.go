// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// TestSandboxAccess: each file access of the agents maps to the path
// judge's of the same meaning, and an unknown one is refused.
func TestSandboxAccess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   agents.FileAccess
		want sandbox.Access
		ok   bool
	}{
		{agents.FileRead, sandbox.Read, true},
		{agents.FileSearch, sandbox.Search, true},
		{agents.FileWrite, sandbox.Write, true},
		{agents.FileWrite + 1, 0, false},
		{-1, 0, false},
	}
	for _, tt := range tests {
		got, ok := sandboxAccess(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("sandboxAccess(%d) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestPathCheckerUnknownAccess: the hooks' path judge refuses an access
// it cannot map, with a reason, where a known one on the same path is
// allowed.
func TestPathCheckerUnknownAccess(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	judge := pathChecker(claude.Agent{}, sandbox.Spec{Workspace: ws, Home: home}, nil, nil)
	p := filepath.Join(ws, "new.txt")
	if v := judge(agents.FileWrite, p, ws); !v.Allowed {
		t.Fatalf("positive control: a write in the workspace: %+v, want allowed", v)
	}
	if v := judge(agents.FileWrite+1, p, ws); v.Allowed || !strings.Contains(v.Message, "does not know file access") {
		t.Fatalf("unknown access: %+v, want a refusal with a reason", v)
	}
}

// TestHookAdapter: `hook NAME` takes the agents with a hook of theirs;
// the ask hook only through a session's judge, and an agent without a
// hook or an unknown one not at all.
func TestHookAdapter(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"claude", "codex", "crush", "pi"} {
		if _, err := hookAdapter(name); err != nil {
			t.Errorf("hookAdapter(%q): %v", name, err)
		}
	}
	for name, want := range map[string]string{"ask": "session's judge", "nosuch": "unknown agent", "exec": "unknown agent"} {
		if _, err := hookAdapter(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("hookAdapter(%q) = %v, want an error with %q", name, err, want)
		}
	}
}
