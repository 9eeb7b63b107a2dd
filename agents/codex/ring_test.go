// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

func ringSession(env map[string]string) agents.Session {
	return agents.Session{Dir: "/run/s-1", Home: "/home/u", Getenv: func(k string) string { return env[k] }}
}

func TestState(t *testing.T) {
	st := New().State(ringSession(nil))
	if !slices.Equal(st.Write, []string{"/home/u/.codex"}) || !slices.Contains(st.ReadOnly, "/home/u/.codex/config.toml") || !slices.Contains(st.ReadOnly, "/home/u/.codex/hooks.json") {
		t.Errorf("State = %+v", st)
	}
	st = New().State(ringSession(map[string]string{"CODEX_HOME": "/c"}))
	if !slices.Equal(st.Write, []string{"/c"}) || !slices.Equal(st.Credentials, []string{"/c/auth.json"}) {
		t.Errorf("CODEX_HOME: %+v", st)
	}
}
