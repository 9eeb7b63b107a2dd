// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/launch/worker"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestSessionEgress runs the probes in a session: the launcher's proxy
// (with the test resolver), the worker's __confine bridge, the real
// bubblewrap; a refusal lands in the session's decision log, which is
// what the shims explain from.
func TestSessionEgress(t *testing.T) {
	f := newFixture(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("skipping: curl is not installed")
	}
	srv := egresstest.Start(t, f.ws)
	p := policy.Default()
	p.Sandbox.Network = policy.NetworkAllow
	p.Sandbox.AllowDomains = srv.AllowDomains()
	p.Sandbox.AllowAddresses = srv.AllowAddresses()
	launch.SessionEgressResolver = egresstest.NewResolver()
	t.Cleanup(func() { launch.SessionEgressResolver = nil })
	eg, err := launch.SessionEgress(p, f.ws)
	if err != nil {
		t.Fatal(err)
	}
	o := f.options(t)
	o.Spec.Network = policy.NetworkAllow
	o.Egress = eg
	o.WorkerArgs = append([]string{sandbox.ConfineCommand, "--", o.Exe}, o.WorkerArgs...)
	t.Setenv("LITE_SANDBOX_NO_AUDIT", "1")
	s, err := launch.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })

	run := func(script, id string) (string, int) {
		t.Helper()
		out := filepath.Join(f.ws, "out-"+id)
		req := worker.Request{Argv: []string{"/bin/bash", "--noprofile", "--norc", "-c", script + " > " + out},
			Env: egress.Env(cmdEnv(f.home), id), Dir: f.ws}
		st, err := worker.Run(context.Background(), s.Socket, req, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return string(b), st
	}
	if err := os.WriteFile(filepath.Join(f.ws, "probes.sh"), []byte(srv.Script()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, st := run("bash probes.sh", egress.NewCommandID())
	if st != 0 {
		t.Fatalf("probes: status %d", st)
	}
	t.Logf("probes:\n%s", out)
	egresstest.Check(t, out)

	// The explanation names the command's own refusal while another
	// command of the session refuses other names at the same time
	// (issue #20): the shim reads egress.jsonl by its command's
	// identifier (egress.ReadActivity, egress.Explain).
	noisy := egress.NewCommandID()
	stopNoise := make(chan struct{})
	noiseDone := make(chan struct{})
	go func() {
		defer close(noiseDone)
		run("for i in $(seq 1 200); do [ -e stop ] && break; curl -s -m 5 http://noise$i.test/; done; true", noisy)
	}()
	t.Cleanup(func() { <-noiseDone })
	defer func() { os.WriteFile(filepath.Join(f.ws, "stop"), nil, 0o644); close(stopNoise) }()
	logPath := filepath.Join(s.Dir, egress.LogName)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if a := egress.ReadActivity(logPath, noisy, time.Time{}); len(a.Own) > 0 {
			break // the noise is on
		}
		if time.Now().After(deadline) {
			t.Fatal("the background command's refusals never reached egress.jsonl")
		}
		time.Sleep(20 * time.Millisecond)
	}
	id := egress.NewCommandID()
	start := time.Now()
	if _, st := run("curl -fsS -m 10 http://"+egresstest.Metadata+"/", id); st == 0 {
		t.Fatal("metadata address reached")
	}
	a := egress.ReadActivity(logPath, id, start)
	lines := egress.Explain(a, "curl -fsS http://"+egresstest.Metadata+"/", 2)
	if len(lines) != 1 || !strings.Contains(lines[0], egresstest.Metadata+":80") || !strings.Contains(lines[0], "sandbox.allow_addresses") {
		t.Errorf("explain lines = %q, want one naming %s and sandbox.allow_addresses", lines, egresstest.Metadata)
	}
	if other := egress.ReadActivity(logPath, noisy, start); len(other.Own) == 0 {
		t.Error("no refusal of the background command in the same window: the test proves nothing")
	}
	for _, d := range a.Own {
		if d.Command != id || d.Host != egresstest.Metadata {
			t.Errorf("attributed to %s: %+v", id, d)
		}
	}
}
