// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// egressSession opens a session with network = "allow" over the test
// servers (the launcher's proxy with the test resolver, the worker's
// __confine bridge, the real bubblewrap) and returns it with a function
// that runs a script in it as command id (stdout in the workspace).
func egressSession(t *testing.T) (*fixture, *egresstest.Servers, *launch.Session, *egress.Recent, func(script, id string) (string, int)) {
	f := newFixture(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("skipping: curl is not installed")
	}
	srv := egresstest.Start(t, f.ws)
	p := policy.Default()
	p.Sandbox.Network = policy.NetworkAllow
	p.Sandbox.AllowDomains = srv.AllowDomains()
	p.Sandbox.AllowAddresses = srv.AllowAddresses()
	p.Sandbox.UpstreamProxy = policy.UpstreamNone // whatever this host's HTTPS_PROXY says
	launch.SetSessionEgressResolver(t, egresstest.NewResolver())
	recent := new(egress.Recent)
	eg, err := launch.SessionEgress(p, f.ws, recent)
	if err != nil {
		t.Fatal(err)
	}
	o := f.options(t)
	o.Spec.Network = policy.NetworkAllow
	o.Egress = eg
	o.WorkerArgs = append([]string{confine.Command, "--", o.Exe}, o.WorkerArgs...)
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
	return f, srv, s, recent, run
}

// TestSessionEgress runs the probes in a session; a refusal lands, under
// the command's identifier, in the proxy's recent decisions, which the
// session's judge explains from in memory (#29), and in the session's
// egress.jsonl, for the person.
func TestSessionEgress(t *testing.T) {
	f, srv, s, recent, run := egressSession(t)
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
	// (issue #20): the judge reads the recent decisions by its
	// command's identifier (egress.Recent, egress.Explain).
	noisy := egress.NewCommandID()
	noiseDone := make(chan struct{})
	go func() {
		defer close(noiseDone)
		// Until the test says stop (a bound of its own, so that it
		// ends even if the test dies first).
		run("i=0; while [ ! -e stop ] && [ $i -lt 20000 ]; do i=$((i+1)); curl -s -m 5 http://noise$i.test/; done; true", noisy)
	}()
	t.Cleanup(func() { <-noiseDone })
	stop := func() { os.WriteFile(filepath.Join(f.ws, "stop"), nil, 0o644) }
	defer stop()
	logPath := filepath.Join(s.Dir, egress.LogName)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if a := recent.Activity(noisy, time.Time{}); len(a.Own) > 0 {
			break // the noise is on
		}
		if time.Now().After(deadline) {
			t.Fatal("the background command's refusals never reached the recent decisions")
		}
		time.Sleep(20 * time.Millisecond)
	}
	id := egress.NewCommandID()
	start := time.Now()
	// Twice, a second apart, so that the window holds refusals of the
	// background command also when the machine is loaded.
	meta := "curl -fsS -m 10 http://" + egresstest.Metadata + "/"
	if _, st := run(meta+"; sleep 1; "+meta, id); st == 0 {
		t.Fatal("metadata address reached")
	}
	a := recent.Activity(id, start)
	if logged := loggedOf(t, logPath, id); logged != len(a.Own) {
		t.Errorf("egress.jsonl holds %d refusals of the command, the recent decisions %d", logged, len(a.Own))
	}
	lines := egress.Explain(a, "curl -fsS http://"+egresstest.Metadata+"/", 2)
	if len(lines) != 1 || !strings.Contains(lines[0], egresstest.Metadata+":80") || !strings.Contains(lines[0], "sandbox.allow_addresses") {
		t.Errorf("explain lines = %q, want one naming %s and sandbox.allow_addresses", lines, egresstest.Metadata)
	}
	if other := recent.Activity(noisy, start); len(other.Own) == 0 {
		t.Error("no refusal of the background command in the same window: the test proves nothing")
	}
	for _, d := range a.Own {
		if d.Command != id || d.Host != egresstest.Metadata {
			t.Errorf("attributed to %s: %+v", id, d)
		}
	}
}

// bridgePIDs returns the processes of the session's bridge pair: those
// whose command line is `... __egress-bridge SOCKET` for its socket and
// that have exec'd it. A server's child that has not exec'd yet (Go
// starts it with vfork) shows the server's command line but is no
// standby: killed with the server, it dies too (seen under load), so
// the server was alone (docs/limits.md).
func bridgePIDs(t *testing.T, sock string) []int {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) == 3 && args[1] == egress.BridgeCommand && args[2] == sock && execd(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// execd says whether pid has exec'd since its fork: the kernel's
// PF_FORKNOEXEC (0x40) in the flags of /proc/PID/stat is clear.
func execd(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	i := strings.LastIndexByte(string(b), ')')
	if err != nil || i < 0 {
		return false
	}
	f := strings.Fields(string(b[i+1:])) // from field 3, the state
	if len(f) < 7 {
		return false
	}
	flags, err := strconv.ParseUint(f[6], 10, 64) // field 9
	return err == nil && flags&0x40 == 0
}

// waitFor polls cond (a safety bound, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestSessionEgressBridgeSupervised: a bridge process killed from the
// host is replaced and the session keeps its network; when the whole
// pair is killed, connections are refused at once (no hang) and the
// explanation says the session has no network.
func TestSessionEgressBridgeSupervised(t *testing.T) {
	_, srv, s, recent, run := egressSession(t)
	sock := filepath.Join(s.Dir, egress.SocketName)
	get := "curl -fsS -m 10 http://" + egresstest.Allowed + ":" + strconv.Itoa(srv.HTTP) + "/"
	if out, st := run(get, egress.NewCommandID()); st != 0 || out != egresstest.Body {
		t.Fatalf("before: status %d, %q", st, out)
	}
	waitFor(t, "the standby", func() bool { return len(bridgePIDs(t, sock)) == 2 })
	for round := range 2 { // the server and then (most likely) its replacement's standby
		pids := bridgePIDs(t, sock)
		if err := syscall.Kill(pids[round%len(pids)], syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if out, st := run(get, egress.NewCommandID()); st != 0 || out != egresstest.Body {
			t.Fatalf("after killing one bridge process (round %d): status %d, %q", round, st, out)
		}
		waitFor(t, "a new standby", func() bool {
			now := bridgePIDs(t, sock)
			return len(now) == 2 && !slices.Contains(now, pids[round%len(pids)])
		})
	}
	if _, err := os.Stat(filepath.Join(s.Dir, egress.BridgeDownName)); err == nil || recent.Activity("", time.Time{}).BridgeDown {
		t.Error("a restart was reported as the bridge gone")
	}

	for _, pid := range bridgePIDs(t, sock) {
		syscall.Kill(pid, syscall.SIGSTOP) // neither may restart the other
	}
	for _, pid := range bridgePIDs(t, sock) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	waitFor(t, "the bridge reported gone", func() bool {
		_, err := os.Stat(filepath.Join(s.Dir, egress.BridgeDownName))
		return err == nil
	})
	id := egress.NewCommandID()
	start := time.Now()
	if _, st := run(get, id); st != 7 { // curl: failed to connect, at once
		t.Errorf("without a bridge: curl status %d, want 7 (connection refused)", st)
	}
	lines := egress.Explain(recent.Activity(id, start), get, 2)
	if len(lines) != 1 || !strings.Contains(lines[0], "this session has no network any more") {
		t.Errorf("explain lines = %q, want the session's bridge gone", lines)
	}
}

// loggedOf counts the records of command id in the session's egress log
// at path and its rotated file.
func loggedOf(t *testing.T, path, id string) int {
	t.Helper()
	n := 0
	for _, name := range []string{path + ".1", path} {
		b, err := os.ReadFile(name)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte{'\n'}) {
			var d egress.Decision
			if json.Unmarshal(l, &d) == nil && d.Command == id {
				n++
			}
		}
	}
	return n
}
