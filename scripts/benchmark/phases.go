// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/shims"
)

// tracer keeps the moments the sessions' judges report (shims.Times).
type tracer struct {
	mu    sync.Mutex
	times []shims.Times
}

func (t *tracer) add(x shims.Times) {
	t.mu.Lock()
	t.times = append(t.times, x)
	t.mu.Unlock()
}

// last returns the moments of the last command, and forgets them.
func (t *tracer) last() (shims.Times, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.times) == 0 {
		return shims.Times{}, false
	}
	x := t.times[len(t.times)-1]
	t.times = t.times[:0]
	return x, true
}

// shimAlone is the shim binary started as a session's shell that stops
// before any session work (its session is not an absolute path): the
// process start, the Go runtime and package initialisation, and exit.
func (b *bench) shimAlone() *exec.Cmd {
	c := exec.Command(contract.FindShimBinary(b.bin), "-c", "true")
	c.Args[0] = "bash"
	c.Env = []string{contract.EnvSession + "=not-absolute", "PATH=/usr/bin:/bin"}
	return c
}

// phaseList is each step of a command on the session path, between two
// moments taken where they happen. floor marks the two steps the
// session path cannot do without (#29): the shim's own process start,
// and the command's bash as bare bash runs it (fork, exec, run, exit,
// reap, in the worker). Everything else is the path's cost above that
// floor: the target is under 10% of the whole.
var phaseList = []struct {
	name  string
	floor bool
	d     func(spawn, reaped time.Time, t shims.Times) time.Duration
}{
	{"the shim's start: exec, Go runtime, package init", true, func(s, _ time.Time, t shims.Times) time.Duration { return t.ShimMain.Sub(s) }},
	{"the shim: session check, cwd, environment", false, func(_, _ time.Time, t shims.Times) time.Duration { return t.Sent.Sub(t.ShimMain) }},
	{"to the judge: connect, send, accept", false, func(_, _ time.Time, t shims.Times) time.Duration { return t.Received.Sub(t.Sent) }},
	{"the judge: receive, forms, unwrap, validate", false, func(_, _ time.Time, t shims.Times) time.Duration { return t.Judged.Sub(t.Received) }},
	{"to the worker: the request, its accept and checks", false, func(_, _ time.Time, t shims.Times) time.Duration { return t.Started.Sub(t.Judged) }},
	{"the command: fork, exec bash, true, exit, reap", true, func(_, _ time.Time, t shims.Times) time.Duration { return t.Reaped.Sub(t.Started) }},
	{"the status back to the judge", false, func(_, _ time.Time, t shims.Times) time.Duration { return t.Exited.Sub(t.Reaped) }},
	{"the audit record", false, func(_, _ time.Time, t shims.Times) time.Duration { return t.Answered.Sub(t.Exited) }},
	{"the status to the shim, its exit, the reap", false, func(_, r time.Time, t shims.Times) time.Duration { return r.Sub(t.Answered) }},
}

// phases splits the session shim's time into where it goes, from the
// moments taken on the path of each command (the shim's, the judge's,
// the worker's; shims.Times) rather than from differences of separate
// runs: the means of the phases add up to the mean of the whole.
func (b *bench) phases(l latencies) {
	s := b.sessions["small"]
	n := max(100, b.n)
	sums := make([]time.Duration, len(phaseList))
	var total time.Duration
	per := make([][]time.Duration, len(phaseList))
	var runs int
	for range n {
		c := b.shim("small", "true")
		spawn := time.Now()
		if err := c.Run(); err != nil {
			fmt.Printf("\nphases: %v\n", err)
			return
		}
		reaped := time.Now()
		t, ok := b.trace[s.Dir].last()
		if !ok || t.ShimMain.IsZero() || t.Started.IsZero() || t.Reaped.IsZero() || t.Answered.IsZero() {
			continue
		}
		runs++
		total += reaped.Sub(spawn)
		for i, p := range phaseList {
			d := p.d(spawn, reaped, t)
			sums[i] += d
			per[i] = append(per[i], d)
		}
	}
	if runs == 0 {
		fmt.Println("\nphases: the judge reported no moments")
		return
	}
	shimBin := contract.FindShimBinary(b.bin)
	fmt.Printf("\nwhere the session shim's time goes (%d commands, one at a time; means add up, medians beside; * the floor):\n", runs)
	var sum, above time.Duration
	for i, p := range phaseList {
		mean := sums[i] / time.Duration(runs)
		sum += mean
		mark := " "
		if p.floor {
			mark = "*"
		} else {
			above += mean
		}
		fmt.Printf("%s %-60s %10s %10s\n", mark, p.name, ms(mean), ms(pct(per[i], 50)))
	}
	fmt.Printf("  %-60s %10s   (the whole, measured: %s)\n", "sum of the phases", ms(sum), ms(total/time.Duration(runs)))
	fmt.Printf("  %-60s %10s\n", "for scale: bare bash -c true, median", ms(l.bare.p50()))
	fmt.Printf("  %-60s %10s\n", "for scale: an empty Go program, median", ms(l.noop.p50()))
	share := ratio(above, sum)
	target(fmt.Sprintf("above the floor < 10%% of the whole (%s, %.0f%%)", ms(above), 100*share), share < 0.10,
		fmt.Sprintf("%s, %.0f points", ms(above-sum/10), 100*share-10))
	fmt.Printf("\nbinaries: %s %s, lite-sandbox %s, an empty Go program %s\n",
		filepath.Base(shimBin), size(shimBin), size(b.bin), size(b.noop))
}

func size(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
}
