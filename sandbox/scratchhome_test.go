// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// TestLayoutScratchHome: a session's scratch home is bound read-write at
// $HOME where the empty tmpfs would be, before the tools and caches that
// are bound on top of it.
func TestLayoutScratchHome(t *testing.T) {
	t.Parallel()
	s := defaultSpec(t, "/home/user/project")
	s.ScratchHome = "/tmp/lite-sandbox-home-1"
	ms := mustLayout(t, s, debianFS())
	bound := -1
	for i, m := range ms {
		if m.Dst == s.Home && m.Kind == Tmpfs {
			t.Fatalf("the home is still a tmpfs: %+v", m)
		}
		if m.Dst == s.Home && m.Kind == Bind && m.Src == s.ScratchHome {
			bound = i
		}
	}
	if bound < 0 {
		t.Fatalf("no bind of the scratch home at %s in %+v", s.Home, ms)
	}
	for _, m := range ms[:bound] {
		if hostpath.Below(m.Dst, s.Home) {
			t.Errorf("%+v is mounted below the home before the scratch home covers it", m)
		}
	}
	s.ScratchHome = ""
	for _, m := range mustLayout(t, s, debianFS()) {
		if m.Dst == s.Home && m.Kind != Tmpfs {
			t.Errorf("without a scratch home the home is %+v, want a tmpfs", m)
		}
	}
}
