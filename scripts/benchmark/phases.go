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
// a process, the shim's own start and judging (the shim with the sandbox
// off runs bash itself, unsandboxed and without an audit record), the
// command's own bash, and the rest: the worker round trip (connect, fds
// over SCM_RIGHTS, fork and exec inside the sandbox, the status back) and
// the audit record (a datagram to the launcher).
func (b *bench) phases(l latencies) {
	shim := contract.FindShimBinary(b.bin)
	off := &setup{name: "shim, sandbox off", cmd: func() *exec.Cmd {
		c := exec.Command(shim, "-c", "true")
		c.Args[0] = "bash" // as a session's shell is named
		c.Dir = b.small
		c.Env = append(os.Environ(), "LITE_SANDBOX_MODE=off", "LITE_SANDBOX_WORKSPACE="+b.small,
			"LITE_SANDBOX_NO_AUDIT=1", "HOME="+b.home)
		return c
	}}
	bare := &setup{name: l.bare.name, cmd: l.bare.cmd}
	if err := interleave([]*setup{bare, off}, max(50, b.n/2)); err != nil {
		fmt.Printf("\nphases: %v\n", err)
		return
	}
	judge, err := b.judge(max(200, b.n))
	if err != nil {
		fmt.Printf("\nphases: %v\n", err)
		return
	}
	startJudge := off.p50() - bare.p50()
	rest := l.session.p50() - off.p50()
	fmt.Printf("\nwhere the session shim's %s goes (medians; shim binary %s):\n", ms(l.session.p50()), filepath.Base(shim))
	fmt.Printf("  %-60s %s\n", "start: an empty Go process", ms(l.noop.p50()))
	fmt.Printf("  %-60s %s\n", "start + judge: the shim, sandbox off, minus bare bash", ms(startJudge))
	fmt.Printf("  %-60s %s\n", "  of which judge: load frozen policy, compile, check", ms(judge))
	fmt.Printf("  %-60s %s\n", "exec: the command's bash (bare bash -c true)", ms(l.bare.p50()))
	fmt.Printf("  %-60s %s\n", "round trip to the worker and audit (the rest)", ms(rest))
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
