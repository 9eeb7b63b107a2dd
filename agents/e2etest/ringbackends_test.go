// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// ringBackends are the agent ring's backends the ring's escape tests run
// against: bwrap's (on this host), and Landlock's in the simulated
// container (#28: no user namespaces, no capabilities; containerScript).
var ringBackends = []string{"bwrap", "landlock"}

// backendUsers runs fn for each of ringBackends, as root and as nobody.
// The Landlock ring needs setpriv and unshare for the simulated
// container, and Landlock on this kernel. Its subtests are named "ll":
// the test's name is in its temporary directory, where the session's
// sockets must fit in 107 bytes.
func backendUsers(t *testing.T, fn func(t *testing.T, e *env, backend string)) {
	for _, b := range ringBackends {
		name := b
		if b == "landlock" {
			name = "ll"
		}
		t.Run(name, func(t *testing.T) {
			if b == "landlock" {
				needContainer(t)
			}
			users(t, func(t *testing.T, e *env) { fn(t, e, b) })
		})
	}
}

// needContainer skips without what the simulated container needs.
func needContainer(t *testing.T) {
	t.Helper()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	for _, p := range []string{"setpriv", "unshare"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skip("needs " + p)
		}
	}
}

// ringCommand is `launch --sandbox on exec -- PROBE` with the escape
// probe's spec in its environment, in the ring of backend: bwrap's on
// this host, or Landlock's in the simulated container. The probe runs
// from a copy in the workspace, which both rings show (the Landlock
// ring does not grant the test's temporary directory).
func (e *env) ringCommand(backend string, spec probeSpec, extra ...string) *exec.Cmd {
	e.t.Helper()
	probe := filepath.Join(e.ws, ".escape-probe")
	if _, err := os.Stat(probe); err != nil {
		b, err := os.ReadFile(probeBinary)
		if err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(probe, b, 0o755); err != nil {
			e.t.Fatal(err)
		}
	}
	argv := []string{binary, "launch", "--sandbox", "on", "exec", "--", probe}
	if backend == "landlock" {
		argv = containerArgv(argv...)
	}
	raw, _ := json.Marshal(spec)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = e.ws
	cmd.Env = append(append(append([]string{}, e.vars...), extra...), escapeProbeEnv+"="+string(raw))
	e.chownTree()
	e.credential(cmd)
	return cmd
}

// runRingProbe runs the escape probe in mode in the ring of backend,
// checks that the session's first line names that ring, and returns
// its findings.
func (e *env) runRingProbe(backend, mode string, args map[string]string, extra ...string) map[string]string {
	e.t.Helper()
	out := filepath.Join(e.ws, ".probe-"+mode+"-"+backend+".json")
	os.Remove(out)
	cmd := e.ringCommand(backend, probeSpec{Mode: mode, Out: out, Args: args}, extra...)
	var o bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &o
	if err := runWithin(cmd, 120*time.Second); err != nil {
		e.t.Fatalf("probe %s in the %s ring: %v\n%s", mode, backend, err, o.String())
	}
	if backend == "landlock" && !strings.Contains(o.String(), "agent ring: landlock") {
		e.t.Fatalf("probe %s: not in the Landlock ring:\n%s", mode, o.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		e.t.Fatalf("probe %s (%s ring) wrote no findings: %v\n%s", mode, backend, err, o.String())
	}
	f := map[string]string{}
	if err := json.Unmarshal(raw, &f); err != nil {
		e.t.Fatal(err)
	}
	return f
}
