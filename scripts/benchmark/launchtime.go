// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// launchTimes measures `launch` from its start to the moment it execs
// the agent (the program prints the time it started), against starting
// the same program directly; and `launch --dry-run AGENT` for each
// installed agent CLI, which detects the agent and generates its
// configuration but starts nothing (no Node start-up when the version
// is cached).
func (b *bench) launchTimes() error {
	runs := max(10, b.n/10)
	var direct, launched []time.Duration
	for range runs {
		d, err := stamped(exec.Command(b.noop, "-stamp"))
		if err != nil {
			return err
		}
		direct = append(direct, d)
		c := exec.Command(b.bin, "launch", "--sandbox", "on", "exec", "--", b.noop, "-stamp")
		c.Dir, c.Env = b.small, append(os.Environ(), "HOME="+b.home)
		if d, err = stamped(c); err != nil {
			return err
		}
		launched = append(launched, d)
	}
	added := pct(launched, 50) - pct(direct, 50)
	fmt.Printf("\nlaunch, from start to the program's exec (median of %d): directly %s, under launch exec %s (+%s)\n",
		runs, ms(pct(direct, 50)), ms(pct(launched, 50)), ms(added))
	target("launch adds <= 50 ms up to the agent's exec", added <= 50*time.Millisecond, ms(added-50*time.Millisecond))
	for _, agent := range []string{"claude", "codex", "pi"} {
		if err := b.dryRun(agent, runs); err != nil {
			fmt.Printf("launch --dry-run %s: %v\n", agent, err)
		}
	}
	return ringNetBench(b.bin, b.noop, b.small, b.home, b.n)
}

// stamped runs c, which prints the Unix nanoseconds at which it started,
// and returns the time from just before the start to then.
func stamped(c *exec.Cmd) (time.Duration, error) {
	t0 := time.Now()
	out, err := c.Output()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", strings.Join(c.Args, " "), err)
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return 0, fmt.Errorf("%s printed no start time", c.Args[0])
	}
	ns, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	if err != nil {
		return 0, err
	}
	return time.Unix(0, ns).Sub(t0), nil
}

func (b *bench) dryRun(agent string, runs int) error {
	path := os.Getenv("PATH")
	if b.agentsBin != "" {
		path = b.agentsBin + string(os.PathListSeparator) + path
	}
	if _, err := exec.LookPath(filepath.Join(b.agentsBin, agent)); err != nil && b.agentsBin != "" {
		return fmt.Errorf("not installed, left out")
	}
	var d []time.Duration
	for i := range runs + 1 {
		c := exec.Command(b.bin, "launch", "--dry-run", agent)
		c.Dir, c.Env = b.small, append(os.Environ(), "PATH="+path)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		t0 := time.Now()
		if err := c.Run(); err != nil {
			return fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
		if i > 0 { // the first run may fill the version cache
			d = append(d, time.Since(t0))
		}
	}
	fmt.Printf("launch --dry-run %-6s median %s (detects the CLI, writes nothing, starts nothing)\n", agent, ms(pct(d, 50)))
	target("launch --dry-run "+agent+" runs no agent code (<= 50 ms)", pct(d, 50) <= 50*time.Millisecond, ms(pct(d, 50)-50*time.Millisecond))
	return nil
}
