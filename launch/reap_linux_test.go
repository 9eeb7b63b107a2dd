// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch"
)

// TestNoZombies: orphans of finished commands are reaped (by bwrap's
// init, PID 1 of the sandbox), so they do not pile up.
func TestNoZombies(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	for range 3 {
		if _, st := f.run(t, s, `(sleep 0.01 &); (true &); sleep 0.02 & true`); st != 0 {
			t.Fatal(st)
		}
	}
	// Until the orphans have exited there is nothing to reap; once they
	// have, none may stay a zombie. Poll both, up to a deadline (a loaded
	// machine is slow, never wrong).
	if got := waitProcCount(t, f, s, func(live, zombies int) bool { return live == 0 && zombies == 0 }); got != "0 0" {
		t.Errorf("live sleeps and zombies in the sandbox after %v: %q, want 0 0", hangGuard, got)
	}
	// Positive control: the count sees a zombie when there is one (a
	// child that its parent, exec'd into sleep, never waits for).
	if _, st := f.run(t, s, `(sh -c 'sleep 0 & exec sleep 3' &)`); st != 0 {
		t.Fatal(st)
	}
	if got := waitProcCount(t, f, s, func(_, zombies int) bool { return zombies > 0 }); strings.HasSuffix(got, " 0") {
		t.Errorf("control: no zombie seen in %v (%q): the count is blind", hangGuard, got)
	}
}

// waitProcCount runs a count of the sandbox's live sleep processes and
// zombies ("LIVE ZOMBIES") until done accepts it or the hang guard has
// passed, and returns the last count.
func waitProcCount(t *testing.T, f *fixture, s *launch.Session, done func(live, zombies int) bool) string {
	t.Helper()
	const count = `live=0 zombies=0
		for f in /proc/[0-9]*/status; do
			st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "$f" 2>/dev/null)
			name=$(sed -n 's/^Name:[[:space:]]*//p' "$f" 2>/dev/null)
			if [ "$st" = Z ]; then zombies=$((zombies+1)); elif [ "$name" = sleep ]; then live=$((live+1)); fi
		done
		echo "$live $zombies"`
	var out string
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, _ = f.run(t, s, count)
		out = strings.TrimSpace(out)
		var live, zombies int
		if _, err := fmt.Sscan(out, &live, &zombies); err == nil && done(live, zombies) {
			return out
		}
	}
	return out
}
