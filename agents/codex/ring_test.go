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
	if !slices.Equal(st.Write, []string{"/home/u/.codex"}) || !slices.Contains(st.ReadOnly, "/home/u/.codex/config.toml") || !slices.Contains(st.ReadOnly, "/home/u/.codex/hooks.json") {
		t.Errorf("State = %+v", st)
	}
	st = New().State(agentstest.RingSession(map[string]string{"CODEX_HOME": "/c"}))
	if !slices.Equal(st.Write, []string{"/c"}) || !slices.Equal(st.Credentials, []string{"/c/auth.json"}) {
		t.Errorf("CODEX_HOME: %+v", st)
	}
}
