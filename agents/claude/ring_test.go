// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestState(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	agentstest.CheckState(t, st, []string{"/home/u/.claude"},
		[]string{"/home/u/.claude/projects", "/home/u/.claude/todos", "/home/u/.claude/history.jsonl", "/home/u/.claude/.credentials.json",
			"/home/u/.claude.json", "/home/u/.cache/claude-cli-nodejs", "/home/u/.local/state/claude"},
		[]string{"/home/u/.claude/settings.json", "/home/u/.claude/settings.local.json", "/home/u/.claude/agents/a.md",
			"/home/u/.claude/commands/c.md", "/home/u/.claude/skills/s/SKILL.md", "/home/u/.claude/output-styles/o.md",
			"/home/u/.claude/plugins/p", "/home/u/.claude/hooks/h.sh", "/home/u/.claude/CLAUDE.md"})
	if len(st.Guard) != 1 || st.Guard[0].Path != "/home/u/.claude.json" || slices.ContainsFunc(st.Guard[0].Data, func(k []string) bool {
		return slices.Contains(k, "mcpServers") || slices.Contains(k, "hasTrustDialogAccepted")
	}) ||
		!slices.ContainsFunc(st.Guard[0].Data, func(k []string) bool { return slices.Equal(k, []string{"numStartups"}) }) {
		t.Errorf("Guard = %v", st.Guard)
	}
	if !slices.Contains(st.LoginEnv, "ANTHROPIC_*") {
		t.Errorf("LoginEnv = %v", st.LoginEnv)
	}
	st = New().State(agentstest.RingSession(map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude"}))
	agentstest.CheckState(t, st, []string{"/cfg/claude"}, []string{"/cfg/claude/.claude.json", "/cfg/claude/projects"}, []string{"/cfg/claude/settings.json"})
	if st.Credentials[0] != "/cfg/claude/.credentials.json" {
		t.Errorf("Credentials = %v", st.Credentials)
	}
}

// TestStateScratch (#31): Claude Code's housekeeping sentinel is
// declared as expected scratch; its settings are not (the control).
func TestStateScratch(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	if !slices.Contains(st.Scratch, "/home/u/.claude/.last-cleanup") || slices.Contains(st.Scratch, "/home/u/.claude/settings.json") {
		t.Errorf("Scratch = %q", st.Scratch)
	}
}
