// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRingLandlockPolicy (#28): the ring's layout turned into Landlock
// grants. A shell bound to the shim is neither readable nor executable
// (its system directory is granted entry by entry, the shell left out);
// the home is absent but for the state entries (read-only), the data
// directory (read-write) and a kept data file (read-only); the
// workspace, the session's tmp and the session's write directory are
// read-write; TCP connect is the given ports only. The positive
// controls are the grants that must be there.
func TestRingLandlockPolicy(t *testing.T) {
	t.Parallel()
	// Not below /tmp: the ring binds its tmp there, which would cover
	// every path of the test.
	root, err := os.MkdirTemp("/var/tmp", "ringlandlock-")
	if err != nil {
		t.Skipf("needs /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	p := func(rel string) string { return filepath.Join(root, rel) }
	for _, d := range []string{"sys/bin", "ws", "home/.ssh", "home/.claude/projects", "home/.claude/agents", "run/s1/tmp", "run/s1/pi"} {
		if err := os.MkdirAll(p(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"sys/bin/bash", "sys/bin/env", "home/.ssh/id", "home/.claude/settings.json", "home/.claude/history.jsonl", "home/.bashrc", "shim"} {
		if err := os.WriteFile(p(f), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := RingSpec{
		Command:      Spec{System: []string{p("sys")}, Workspace: p("ws"), Home: p("home")},
		Read:         []string{p("shim")},
		Write:        []string{p("home/.claude/projects")},
		Layers:       []Layer{{Dir: p("home/.claude"), Scratch: p("run/s1/state/0"), Entries: []string{"settings.json", "agents", "projects"}}},
		Tmp:          p("run/s1/tmp"),
		Session:      p("run/s1"),
		SessionWrite: []string{p("run/s1/pi")},
		Exe:          p("shim"),
		Shims:        []string{p("sys/bin/bash")},
		HomeScratch:  p("run/s1/home"),
		Hide:         []string{p("run")},
		ConnectTCP:   []uint16{41000, 5432},
	}
	ms, err := RingLayout(r, OSFS{})
	if err != nil {
		t.Fatal(err)
	}
	ll := ringLandlockPolicy(r, unprotectWorkspace(r.Command, ms))
	granted := append(append(slices.Clone(ll.RO), ll.RW...), ll.Dev...)
	for _, absent := range []string{p("sys/bin/bash"), p("sys/bin"), p("sys"), p("home"), p("home/.ssh"), p("home/.ssh/id"), p("home/.bashrc"), p("home/.claude"), p("run")} {
		if slices.Contains(granted, absent) {
			t.Errorf("%s is granted; want it absent (RO %v, RW %v)", absent, ll.RO, ll.RW)
		}
	}
	for _, ro := range []string{p("sys/bin/env"), p("shim"), p("home/.claude/settings.json"), p("home/.claude/agents"), p("home/.claude/history.jsonl"), p("run/s1")} {
		if !slices.Contains(ll.RO, ro) {
			t.Errorf("%s is not read-only granted (RO %v)", ro, ll.RO)
		}
	}
	for _, rw := range []string{p("ws"), p("run/s1/tmp"), p("run/s1/pi"), p("home/.claude/projects")} {
		if !slices.Contains(ll.RW, rw) {
			t.Errorf("%s is not read-write granted (RW %v)", rw, ll.RW)
		}
	}
	if slices.Contains(ll.RW, p("home/.claude/settings.json")) || slices.Contains(ll.RW, p("home/.claude/history.jsonl")) {
		t.Errorf("state written: RW %v", ll.RW)
	}
	if !ll.Net || !slices.Equal(ll.ConnectTCP, []uint16{41000, 5432}) || ll.Tmpdir != p("run/s1/tmp") || !ll.Broker {
		t.Errorf("net %v, tcp %v, tmpdir %s, broker %v", ll.Net, ll.ConnectTCP, ll.Tmpdir, ll.Broker)
	}
}
