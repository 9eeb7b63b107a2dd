// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// phases splits the session shim's median into where it goes: starting
// a process, starting our binary, judging (loading the frozen policy,
// compiling it, checking the command), the command's own bash, and the
// rest, which is the worker round trip (connect, fds over SCM_RIGHTS,
// fork and exec inside the sandbox, the status back) and the audit
// record.
func (b *bench) phases(l latencies) {
	ours := &setup{name: "our binary's start", cmd: func() *exec.Cmd { return exec.Command(b.bin, "version") }}
	if err := interleave([]*setup{ours}, max(50, b.n/2)); err != nil {
		fmt.Printf("\nphases: %v\n", err)
		return
	}
	judge, err := b.judge(max(200, b.n))
	if err != nil {
		fmt.Printf("\nphases: %v\n", err)
		return
	}
	start := ours.p50()
	exec := l.bare.p50()
	rest := l.session.p50() - start - judge - exec
	fmt.Printf("\nwhere the session shim's %s goes (medians):\n", ms(l.session.p50()))
	fmt.Printf("  %-56s %s\n", "start: an empty Go process", ms(l.noop.p50()))
	fmt.Printf("  %-56s %s\n", "start: our binary (lite-sandbox version), in all", ms(start))
	fmt.Printf("  %-56s %s\n", "judge: load frozen policy, compile, check (in process)", ms(judge))
	fmt.Printf("  %-56s %s\n", "exec: the command's bash (bare bash -c true)", ms(exec))
	fmt.Printf("  %-56s %s\n", "round trip and audit (the rest)", ms(rest))
}

// judge times, in process, what the shim does before it runs anything.
func (b *bench) judge(n int) (time.Duration, error) {
	s := b.sessions["small"]
	file := filepath.Join(s.Dir, contract.PolicyName)
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var d []time.Duration
	for range n {
		t0 := time.Now()
		p, err := policy.LoadFrozen(file, data)
		if err != nil {
			return 0, err
		}
		v, err := validator.NewChecked(p, validator.Env{Workspace: b.small, Home: b.home, Cwd: b.small})
		if err != nil {
			return 0, err
		}
		if r := v.Check("true"); !r.Allowed() {
			return 0, fmt.Errorf("judge: `true` was not allowed")
		}
		d = append(d, time.Since(t0))
	}
	return pct(d, 50), nil
}
