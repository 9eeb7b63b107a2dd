// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"encoding/json"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestPrepare(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "2.1.197 (Claude Code)", "-p", "hello")
	s.Home = "/home/user" // the golden file holds the home's persistence rules
	s.Deny = []string{"/home/user/.ssh"}
	s.Protect = []string{"/home/user/project/.git/hooks", "/home/user/project/.claude"}
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	agentstest.Golden(t, "plan", p)

	// The settings flag comes before the user's arguments and carries
	// the routing (A1), hooks off (A2) and Claude's sandbox off (A11).
	if p.Argv[1] != "--settings" || p.Argv[3] != "-p" {
		t.Fatalf("argv %q", p.Argv)
	}
	var v struct {
		Env             map[string]string
		Sandbox         struct{ Enabled *bool }
		DisableAllHooks bool
	}
	if err := json.Unmarshal([]byte(p.Argv[2]), &v); err != nil {
		t.Fatal(err)
	}
	if v.Env["CLAUDE_CODE_SHELL"] != s.Shim || v.Env["CLAUDE_CODE_SHELL_PREFIX"] != "" || v.Env["CLAUDE_CODE_TMPDIR"] != s.TmpDir ||
		v.Sandbox.Enabled == nil || *v.Sandbox.Enabled || !v.DisableAllHooks {
		t.Fatalf("settings %s", p.Argv[2])
	}
}
