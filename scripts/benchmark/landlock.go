// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// landlockBench puts the Landlock backend's per-command cost beside
// bwrap's (#28): `run` and the session shim under each, interleaved
// with bare bash. Without Landlock (or bwrap) it says so and measures
// what it can.
func (b *bench) landlockBench(runtimeRoot string) error {
	lb, err := sandbox.DetectLandlock()
	if err != nil {
		fmt.Printf("\nlandlock backend: not measured (%v)\n", err)
		return nil
	}
	ll := *b
	ll.backend = lb
	closeAll, err := ll.openSessions(runtimeRoot)
	if err != nil {
		return fmt.Errorf("landlock sessions: %w", err)
	}
	defer closeAll()
	runWith := func(backend string) func() *exec.Cmd {
		return func() *exec.Cmd {
			c := b.run("true")
			c.Env = append(c.Env, "LITE_SANDBOX_BACKEND="+backend)
			return c
		}
	}
	bare := &setup{name: "bare bash -c true", cmd: func() *exec.Cmd { return bash("true") }}
	setups := []*setup{
		bare,
		{name: "run, bwrap backend", cmd: runWith("bwrap")},
		{name: "run, landlock backend", cmd: runWith(sandbox.BackendLandlock)},
	}
	if b.sessions != nil {
		setups = append(setups, &setup{name: "session shim, bwrap backend", cmd: func() *exec.Cmd { return b.shim("small", "true") }})
	}
	setups = append(setups, &setup{name: "session shim, landlock backend", cmd: func() *exec.Cmd { return ll.shim("small", "true") }})
	if err := interleave(setups, b.n); err != nil {
		return err
	}
	fmt.Printf("\n%-40s %10s %10s %10s %10s\n", "backends: one `true`, "+lb.String(), "median", "p95", "added p50", "x bare")
	for _, s := range setups {
		row(s, bare)
	}
	return b.launchBackends()
}

// onlyLandlock is `-only landlock`: the backends' rows alone, with the
// bwrap session beside them.
func onlyLandlock(b *bench, base string) error {
	var err error
	if b.backend, err = sandbox.Detect(); err != nil {
		return err
	}
	closeAll, err := b.openSessions(filepath.Join(base, "run"))
	if err != nil {
		return err
	}
	defer closeAll()
	fmt.Printf("lite-sandbox benchmark, backends only: %s, %d runs per setup\n", kernel(), b.n)
	return b.landlockBench(filepath.Join(base, "run-landlock"))
}
