// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRecent: the session's recent decisions are the judge's, in
// memory (#29): a command gets its own since it started, oldest first,
// and the newest RecentKeep of the session survive; the bridge's state
// and a stop of the launcher during the command are told, and not
// before (positive controls beside each).
func TestRecent(t *testing.T) {
	t.Parallel()
	var r Recent
	t0 := time.Now()
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	n := RecentKeep + 10
	for i := range n {
		r.Add(Decision{Time: at(i), Command: "c" + strconv.Itoa(i%2), Host: "h" + strconv.Itoa(i), Result: ResultRefused})
	}
	a := r.Activity("c1", time.Time{})
	if len(a.Own) != RecentKeep/2 {
		t.Fatalf("own: %d decisions, want the newest %d of the command", len(a.Own), RecentKeep/2)
	}
	if first, last := a.Own[0].Host, a.Own[len(a.Own)-1].Host; first != "h11" || last != "h"+strconv.Itoa(n-1) {
		t.Errorf("own: %s .. %s, want h11 .. h%d (oldest first, the oldest dropped)", first, last, n-1)
	}
	if a := r.Activity("c1", at(n-4)); len(a.Own) != 2 || a.BridgeDown || a.Stopped != 0 {
		t.Errorf("since the end: %+v, want 2 decisions, bridge up, not stopped", a)
	}
	r.SetBridge(false)
	if a := r.Activity("c0", time.Time{}); !a.BridgeDown {
		t.Errorf("bridge down not told")
	}
	r.SetBridge(true)
	before := time.Now()
	r.Continued(42)
	if a := r.Activity("c0", before.Add(-time.Second)); a.Stopped != 42 {
		t.Errorf("stopped during the command: %d, want 42", a.Stopped)
	} else if l := Explain(a, "curl x", 2); len(l) != 1 || !strings.Contains(l[0], "was stopped") || !strings.Contains(l[0], "kill -CONT 42") {
		t.Errorf("stopped line: %q", l)
	}
	if a := r.Activity("c0", time.Now().Add(time.Second)); a.Stopped != 0 {
		t.Errorf("a command started after the stop was told of it")
	}
}
