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
	if !slices.Equal(st.SessionWrite, []string{"/run/s-1/crush"}) || !slices.Equal(st.Write, []string{"/home/u/.local/share/crush", "/home/u/.config/crush"}) {
		t.Errorf("State = %+v", st)
	}
	if !slices.Contains(st.ReadOnly, "/home/u/.config/crush/crush.json") || !slices.Contains(st.ReadOnly, "/home/u/.config/crush/crushrc") {
		t.Errorf("ReadOnly = %v", st.ReadOnly)
	}
	st = New().State(agentstest.RingSession(map[string]string{"CRUSH_GLOBAL_DATA": "/d", "XDG_CONFIG_HOME": "/x"}))
	if !slices.Equal(st.Write, []string{"/d", "/x/crush"}) {
		t.Errorf("env: %v", st.Write)
	}
}
