// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
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

// TestJudgeUnknownAccess: the hook's judge refuses an access it cannot
// map, with a reason, where a known one on the same path is allowed.
func TestJudgeUnknownAccess(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	c := &HookCmd{adapter: claude.Agent{}, config: &config.Config{Policy: policy.Default(), Workspace: ws, Home: home, Cwd: ws}}
	p := filepath.Join(ws, "new.txt")
	if v := c.judge(agents.FileWrite, p, ws); !v.Allowed {
		t.Fatalf("positive control: a write in the workspace: %+v, want allowed", v)
	}
	if v := c.judge(agents.FileWrite+1, p, ws); v.Allowed || !strings.Contains(v.Message, "does not know file access") {
		t.Fatalf("unknown access: %+v, want a refusal with a reason", v)
	}
}
