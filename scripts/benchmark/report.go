// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// setup is one way of running a command, timed side by side with the
// others.
type setup struct {
	name string
	cmd  func() *exec.Cmd
	d    []time.Duration
	// fails: the command exits non-zero by design (the shim alone,
	// stopped before any session work).
	fails bool
}

func (s *setup) p50() time.Duration { return pct(s.d, 50) }
func (s *setup) p95() time.Duration { return pct(s.d, 95) }

// interleave warms every setup up, then runs them in turn n times, so
// that load changes on the machine hit every setup alike.
func interleave(setups []*setup, n int) error {
	for _, s := range setups {
		for range 5 {
			if out, err := s.cmd().CombinedOutput(); err != nil && !s.fails {
				return fmt.Errorf("%s: %w: %s", s.name, err, strings.TrimSpace(string(out)))
			}
		}
	}
	for range n {
		for _, s := range setups {
			c := s.cmd()
			t0 := time.Now()
			if err := c.Run(); err != nil && !s.fails {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			s.d = append(s.d, time.Since(t0))
		}
	}
	return nil
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		b = time.Microsecond
	}
	return float64(a) / float64(b)
}

// target prints whether a target was met and, when it was not, by how
// much it was missed (miss is a short phrase such as "+0.4 ms").
func target(name string, ok bool, miss string) {
	mark := "met"
	if !ok {
		mark = "MISSED"
		if miss != "" {
			mark += " (by " + miss + ")"
		}
	}
	fmt.Printf("  target %-58s %s\n", name+":", mark)
}

func kernel() string {
	b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return "linux " + strings.TrimSpace(string(b))
}
