// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package crush

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestState(t *testing.T) {
	st := New().State(agentstest.RingSession(nil))
	if !slices.Equal(st.SessionWrite, []string{"/run/s-1/crush"}) {
		t.Errorf("SessionWrite = %v", st.SessionWrite)
	}
	agentstest.CheckState(t, st, []string{"/home/u/.local/share/crush", "/home/u/.config/crush"}, nil,
		[]string{"/home/u/.local/share/crush/crush.json", "/home/u/.config/crush/crush.json", "/home/u/.config/crush/crushrc",
			"/home/u/.config/crush/commands/c.md"})
	st = New().State(agentstest.RingSession(map[string]string{"CRUSH_GLOBAL_DATA": "/d", "XDG_CONFIG_HOME": "/x"}))
	if !slices.Equal(st.Dirs, []string{"/d", "/x/crush"}) {
		t.Errorf("env: %v", st.Dirs)
	}
}
