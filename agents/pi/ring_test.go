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
	if slices.Contains(st.Write, "/home/u/.pi/agent") || !slices.Contains(st.Write, "/home/u/.pi/agent/sessions") || !slices.Contains(st.Write, "/home/u/.pi/agent/auth.json") {
		t.Errorf("Write = %v", st.Write)
	}
	if !slices.Contains(st.ReadOnly, "/home/u/.pi/agent/extensions/") || !slices.Contains(st.ReadOnly, "/home/u/.pi/agent/settings.json") {
		t.Errorf("ReadOnly = %v", st.ReadOnly)
	}
}
