// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"sync"
	"time"
)

// RecentKeep is how many decisions a [Recent] holds: the newest ones
// of the whole session. A failed command is explained from its own
// (docs/egress.md, "The audit"), which are among these unless the
// session made this many connections since it started.
const RecentKeep = 4096

// Recent is the session proxy's recent decisions and its bridge state,
// shared in memory with the session's judge, which runs in the same
// process (#29): the judge explains a failed command from them instead
// of reading egress.jsonl back. egress.jsonl is still written, for the
// person. The zero value is ready; it is safe for concurrent use.
type Recent struct {
	mu         sync.Mutex
	ring       []Decision // a circular buffer of up to RecentKeep
	next       int        // where the next decision goes once ring is full
	bridgeDown bool
	continued  time.Time // when the process last got SIGCONT
	pid        int       // the process that did
}

// Add records d (Proxy.Record).
func (r *Recent) Add(d Decision) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.ring) < RecentKeep {
		r.ring = append(r.ring, d)
		return
	}
	r.ring[r.next] = d
	r.next = (r.next + 1) % RecentKeep
}

// SetBridge records whether the sandbox's bridge is up (Proxy.OnBridge).
func (r *Recent) SetBridge(up bool) {
	r.mu.Lock()
	r.bridgeDown = !up
	r.mu.Unlock()
}

// Continued records that process pid (the launcher, which serves the
// proxy) was continued after a stop (SIGCONT) just now: a command that
// ran meanwhile had its connections cut.
func (r *Recent) Continued(pid int) {
	r.mu.Lock()
	r.continued, r.pid = time.Now(), pid
	r.mu.Unlock()
}

// Activity is the Activity of command id since since ([ActivityOf]),
// with the bridge's state.
func (r *Recent) Activity(id string, since time.Time) Activity {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Oldest first: the part after next, then the part before.
	ds := append(append(make([]Decision, 0, len(r.ring)), r.ring[r.next:]...), r.ring[:r.next]...)
	a := ActivityOf(ds, id, since)
	a.BridgeDown = r.bridgeDown
	if r.continued.After(since) {
		a.Stopped = r.pid
	}
	return a
}
