// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestState(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	agentstest.CheckState(t, st, []string{"/home/u/.codex"},
		[]string{"/home/u/.codex/sessions", "/home/u/.codex/log", "/home/u/.codex/history.jsonl", "/home/u/.codex/auth.json", "/home/u/.codex/state_5.sqlite", "/home/u/.codex/state_5.sqlite-wal"},
		[]string{"/home/u/.codex/config.toml", "/home/u/.codex/hooks.json", "/home/u/.codex/.env", "/home/u/.codex/AGENTS.md",
			"/home/u/.codex/rules/default.rules", "/home/u/.codex/prompts/p.md", "/home/u/.codex/skills/s/SKILL.md"})
	st = New().State(agentstest.RingSession(map[string]string{"CODEX_HOME": "/c"}))
	agentstest.CheckState(t, st, []string{"/c"}, []string{"/c/sessions"}, []string{"/c/config.toml"})
	if !slices.Equal(st.Credentials, []string{"/c/auth.json"}) {
		t.Errorf("CODEX_HOME: %+v", st)
	}
}
