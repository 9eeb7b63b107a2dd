// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package crush

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
	if !slices.Equal(st.SessionWrite, []string{"/run/s-1/crush"}) || !slices.Equal(st.Write, []string{"/home/u/.local/share/crush", "/home/u/.config/crush"}) {
		t.Errorf("State = %+v", st)
	}
	if !slices.Contains(st.ReadOnly, "/home/u/.config/crush/crush.json") || !slices.Contains(st.ReadOnly, "/home/u/.config/crush/crushrc") {
		t.Errorf("ReadOnly = %v", st.ReadOnly)
	}
	st = New().State(ringSession(map[string]string{"CRUSH_GLOBAL_DATA": "/d", "XDG_CONFIG_HOME": "/x"}))
	if !slices.Equal(st.Write, []string{"/d", "/x/crush"}) {
		t.Errorf("env: %v", st.Write)
	}
}
