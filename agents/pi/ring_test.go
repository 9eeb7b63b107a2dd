// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

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
	if !slices.Equal(st.SessionWrite, []string{"/run/s-1/pi"}) {
		t.Errorf("SessionWrite = %v", st.SessionWrite)
	}
	// What the session's agent dir links to, not the whole user dir.
	if slices.Contains(st.Write, "/home/u/.pi/agent") || !slices.Contains(st.Write, "/home/u/.pi/agent/sessions") || !slices.Contains(st.Write, "/home/u/.pi/agent/auth.json") {
		t.Errorf("Write = %v", st.Write)
	}
	if !slices.Contains(st.ReadOnly, "/home/u/.pi/agent/extensions/") || !slices.Contains(st.ReadOnly, "/home/u/.pi/agent/settings.json") {
		t.Errorf("ReadOnly = %v", st.ReadOnly)
	}
}
