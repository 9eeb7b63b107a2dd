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
	launch.SetSessionEgressResolver(t, egresstest.NewResolver())
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

	run := func(script string) (string, int) {
		t.Helper()
		out := filepath.Join(f.ws, "out")
		req := worker.Request{Argv: []string{"/bin/bash", "--noprofile", "--norc", "-c", script + " > " + out},
			Env: egress.Env(cmdEnv(f.home)), Dir: f.ws}
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
	out, st := run("bash probes.sh")
	if st != 0 {
		t.Fatalf("probes: status %d", st)
	}
	t.Logf("probes:\n%s", out)
	egresstest.Check(t, out)

	start := time.Now()
	if _, st := run("curl -fsS -m 10 http://" + egresstest.Refused + "/"); st == 0 {
		t.Fatal("refused name reached")
	}
	lines := egress.Explain(egress.Refusals(filepath.Join(s.Dir, egress.LogName), start), 2)
	if len(lines) != 1 || !strings.Contains(lines[0], "refused.test:80") || !strings.Contains(lines[0], "sandbox.allow_domains") {
		t.Errorf("explain lines from the session log = %q, want one naming refused.test and sandbox.allow_domains", lines)
	}
}
