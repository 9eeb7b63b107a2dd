// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package contract

import "testing"

// TestRingSession: outside a ring no session directory is a mount point,
// so a shim without LITE_SANDBOX_SESSION stays a shim of its own. The
// ring's side is tested end to end (agents/e2etest TestRingClearedEnv).
func TestRingSession(t *testing.T) {
	if d := RingSession(); d != "" {
		t.Errorf("RingSession() = %q outside any ring", d)
	}
}

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`/a/b`:             "/a/b",
		`/a\040b`:          "/a b",
		`/tab\011x\134y`:   "/tab\tx\\y",
		`/short\04`:        `/short\04`,
		`/notoctal\089end`: `/notoctal\089end`,
	} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}
