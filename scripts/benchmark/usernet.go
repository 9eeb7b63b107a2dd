// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// userNetBench reports what network = "open" costs now that it is the
// internet through slirp4netns (a namespace of its own, the stack
// started, the prohibit routes added) beside network = "host" (the
// host's network shared: what open was before #27): per `run`, per
// session start (launch.Open, the worker answering), and per session
// command (the namespace is connected once, when the worker starts).
func userNetBench(bin string, b sandbox.Backend, ws, home string, n int) error {
	if path, why := sandbox.UserNet(); path == "" {
		fmt.Printf("\nnetwork = \"open\": not measured: %s\n", why)
		return nil
	}
	n = max(n/4, 10)
	fmt.Printf("\nnetwork = \"open\" (slirp4netns) beside \"host\" (the shared network, the old open); %d runs\n", n)
	runs := []*setup{}
	for _, mode := range []string{"host", "open"} {
		runs = append(runs, &setup{name: "run, network " + mode, cmd: func() *exec.Cmd {
			c := exec.Command(bin, "run", "--sandbox", "on", "--network", mode, "--", "true")
			c.Dir = ws
			c.Env = append(os.Environ(), "HOME="+home, "LITE_SANDBOX_NO_AUDIT=1")
			return c
		}})
	}
	if err := interleave(runs, n); err != nil {
		return err
	}
	userNetRows(runs, "per run")
	root, err := os.MkdirTemp("", "lite-sandbox-bench-usernet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	var cmds []*setup
	for _, mode := range []string{"host", "open"} {
		var starts []time.Duration
		var s *launch.Session
		for i := range 6 {
			if s != nil {
				s.Close()
			}
			t0 := time.Now()
			if s, err = openBenchSession(bin, b, ws, home, filepath.Join(root, fmt.Sprint(mode, i)), mode); err != nil {
				return fmt.Errorf("session, network %s: %w", mode, err)
			}
			starts = append(starts, time.Since(t0))
		}
		defer s.Close()
		fmt.Printf("  %-32s median %s  p95 %s\n", "session start, network "+mode, ms(pct(starts, 50)), ms(pct(starts, 95)))
		cmds = append(cmds, &setup{name: "session command, network " + mode, cmd: func() *exec.Cmd {
			c := exec.Command(filepath.Join(s.Dir, contract.ShimPath), "-c", "true")
			c.Dir = ws
			c.Env = append(os.Environ(), contract.EnvSession+"="+s.Dir, "HOME="+home)
			return c
		}})
	}
	if err := interleave(cmds, n); err != nil {
		return err
	}
	userNetRows(cmds, "per session command")
	return nil
}

// userNetRows prints the setups' medians and p95s, and the second's
// median over the first's.
func userNetRows(s []*setup, what string) {
	for i, x := range s {
		extra := ""
		if i > 0 {
			extra = fmt.Sprintf("  added %s %s", ms(x.p50()-s[0].p50()), what)
		}
		fmt.Printf("  %-32s median %s  p95 %s%s\n", x.name, ms(x.p50()), ms(x.p95()), extra)
	}
}

// openBenchSession opens a session of the default policy with the given
// network mode, as launch would.
func openBenchSession(bin string, b sandbox.Backend, ws, home, rt, mode string) (*launch.Session, error) {
	pol := policy.Default()
	pol.Sandbox.Network = mode
	frozen, err := pol.Marshal()
	if err != nil {
		return nil, err
	}
	spec, err := pol.SandboxSpec(ws, home, "")
	if err != nil {
		return nil, err
	}
	meta := contract.Meta{Workspace: ws, Home: home, Mode: "on"}
	return launch.Open(context.Background(), launch.Options{
		Spec: spec, Backend: b, Exe: bin, PolicyTOML: frozen,
		Meta:        meta,
		RuntimeRoot: rt,
		Judge: func(dir, token string) (launch.Judge, error) {
			return shims.NewJudge(dir, token, frozen, meta)
		},
	})
}
