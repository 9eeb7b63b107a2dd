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
	for _, w := range []string{"/home/u/.claude", "/home/u/.claude.json", "/home/u/.claude.lock", "/home/u/.cache/claude-cli-nodejs", "/home/u/.local/state/claude"} {
		if !slices.Contains(st.Write, w) {
			t.Errorf("Write lacks %s: %v", w, st.Write)
		}
	}
	for _, g := range []string{"/home/u/.claude/settings.json", "/home/u/.claude/settings.local.json", "/home/u/.claude/hooks/", "/home/u/.claude/plugins/"} {
		if !slices.Contains(st.ReadOnly, g) {
			t.Errorf("ReadOnly lacks %s: %v", g, st.ReadOnly)
		}
	}
	if len(st.Guard) != 1 || st.Guard[0].Path != "/home/u/.claude.json" || !slices.ContainsFunc(st.Guard[0].Keys, func(k []string) bool { return slices.Equal(k, []string{"mcpServers"}) }) {
		t.Errorf("Guard = %v", st.Guard)
	}
	st = New().State(agentstest.RingSession(map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude"}))
	if !slices.Contains(st.Write, "/cfg/claude") || !slices.Contains(st.Write, "/cfg/claude/.claude.json") || !slices.Contains(st.ReadOnly, "/cfg/claude/settings.json") {
		t.Errorf("CLAUDE_CONFIG_DIR: %+v", st)
	}
	if st.Credentials[0] != "/cfg/claude/.credentials.json" {
		t.Errorf("Credentials = %v", st.Credentials)
	}
}
