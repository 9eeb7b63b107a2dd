// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestState(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	if !slices.Equal(st.SessionWrite, []string{"/run/s-1/pi"}) {
		t.Errorf("SessionWrite = %v", st.SessionWrite)
	}
	// What the session's agent dir links to, not the whole user dir.
	if slices.Contains(st.Write, "/home/u/.pi/agent") || !slices.Contains(st.Write, "/home/u/.pi/agent/sessions") {
		t.Errorf("Write = %v", st.Write)
	}
	agentstest.CheckState(t, st, []string{"/home/u/.pi/agent"}, []string{"/home/u/.pi/agent/sessions", "/home/u/.pi/agent/auth.json"},
		[]string{"/home/u/.pi/agent/models.json", "/home/u/.pi/agent/settings.json", "/home/u/.pi/agent/extensions/e.ts",
			"/home/u/.pi/agent/prompts/p.md", "/home/u/.pi/agent/skills/s/SKILL.md", "/home/u/.pi/agent/npm/x", "/home/u/.pi/agent/git/x"})
}
