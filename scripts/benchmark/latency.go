// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// latencies are the medians the later sections need.
type latencies struct {
	bare, noop, shim, fresh, run, session, large *setup
}

// latency times one `true` in every setup, interleaved, and prints the
// table of docs/performance.md with the peers beside us.
func (b *bench) latency() (latencies, error) {
	fresh, done, err := b.freshBwrap()
	if err != nil {
		return latencies{}, err
	}
	defer done()
	l := latencies{
		bare:    &setup{name: "bare bash -c true", cmd: func() *exec.Cmd { return bash("true") }},
		noop:    &setup{name: "empty Go program (one process start)", cmd: func() *exec.Cmd { return exec.Command(b.noop) }},
		shim:    &setup{name: "the shim process alone (no session work)", cmd: b.shimAlone, fails: true},
		fresh:   &setup{name: "fresh bwrap, same mounts as run", cmd: fresh},
		run:     &setup{name: "lite-sandbox run (no session)", cmd: func() *exec.Cmd { return b.run("true") }},
		session: &setup{name: "lite-sandbox, the session shim", cmd: func() *exec.Cmd { return b.shim("small", "true") }},
		large:   &setup{name: "session shim, 20k-file workspace", cmd: func() *exec.Cmd { return b.shim("large", "true") }},
	}
	// Two groups, each with bare bash: a sandbox that `run` or a fresh
	// bwrap made is torn down by the kernel after its process exits (its
	// namespaces), and that work would land on whichever setup ran next.
	setups := []*setup{l.bare, l.noop, l.shim, l.session, l.large}
	if err := interleave(setups, b.n); err != nil {
		return l, err
	}
	freshBare := &setup{name: l.bare.name + " (beside bwrap)", cmd: l.bare.cmd}
	if err := interleave([]*setup{freshBare, l.fresh, l.run}, b.n); err != nil {
		return l, err
	}
	// The peers are up to a hundred times slower: fewer runs, interleaved
	// with bare bash again so that their ratios come from the same minutes.
	ps, missing := peerSetups(b.small, b.peers)
	peerBare := &setup{name: l.bare.name, cmd: l.bare.cmd}
	if len(ps) > 0 {
		if err := interleave(append([]*setup{peerBare}, ps...), max(20, b.n/5)); err != nil {
			return l, err
		}
	}

	fmt.Printf("\n%-40s %10s %10s %10s %10s\n", "one `true`, interleaved", "median", "p95", "added p50", "x bare")
	for _, s := range setups {
		row(s, l.bare)
	}
	for _, s := range []*setup{freshBare, l.fresh, l.run} {
		row(s, freshBare)
	}
	for _, s := range ps {
		row(s, peerBare)
	}
	if len(missing) > 0 {
		fmt.Printf("not installed, left out: %s (scripts/bench installs them unless LITE_SANDBOX_BENCH_NO_INSTALL=1)\n", strings.Join(missing, ", "))
	}
	b.latencyTargets(l)
	return l, nil
}

func row(s, bare *setup) {
	fmt.Printf("%-40s %10s %10s %10s %9.1fx\n", s.name, ms(s.p50()), ms(s.p95()), ms(s.p50()-bare.p50()), ratio(s.p50(), bare.p50()))
}

func (b *bench) latencyTargets(l latencies) {
	fmt.Println()
	for _, q := range []struct {
		name string
		f    func(*setup) time.Duration
	}{{"median", (*setup).p50}, {"p95", (*setup).p95}} {
		r := ratio(q.f(l.session), q.f(l.bare))
		target(fmt.Sprintf("session / bare <= 2.0 at the %s (%.2f)", q.name, r), r <= 2.0,
			ms(q.f(l.session)-2*q.f(l.bare)))
	}
	added := l.session.p50() - l.bare.p50()
	target(fmt.Sprintf("session adds <= one process start (%s vs %s)", ms(added), ms(l.noop.p50())),
		added <= l.noop.p50(), ms(added-l.noop.p50()))
	flat := ratio(l.large.p50(), l.session.p50())
	target(fmt.Sprintf("flat with a 20k-file workspace (%.2fx)", flat), flat <= 1.1, fmt.Sprintf("%.0f%%", 100*(flat-1)))
	r := ratio(l.shim.p50(), l.noop.p50())
	target(fmt.Sprintf("the shim process alone <= 1.3x an empty Go program (%.2fx)", r), r <= 1.3, ms(l.shim.p50()-l.noop.p50()*13/10))
	r = ratio(l.run.p50(), l.fresh.p50())
	target(fmt.Sprintf("run <= 2x a fresh bwrap with the same mounts (%.2fx)", r), r <= 2, ms(l.run.p50()-2*l.fresh.p50()))
}
