// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// verdictAskRule asks about `touch asked-*`; the test's person says no.
const verdictAskRule = `
[[rule]]
id = "test.ask"
decision = "ask"
command = "touch"
args = ["asked*"]
reason = "Touching an asked file needs a person."
`

// shimMain is the shim in a session (forward.Run, what
// lite-sandbox-shim runs) with the argv in $HELPER_ARGV (JSON), from
// this process's working directory and stdio.
func shimMain() int {
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv("HELPER_ARGV")), &argv); err != nil {
		return 70
	}
	return forward.Run(os.Getenv("HELPER_SESSION"), argv, os.Stderr, time.Now())
}

// verdictCase is one command through the real shim and judge: argv,
// the working directory (outside: a directory outside the workspace),
// its stdin (tty: a terminal), and what its one audit record says.
type verdictCase struct {
	name     string
	argv     []string
	outside  bool
	stdin    string
	tty      bool
	decision string
	rule     string
	reason   string // a part of the record's reason
	ran      bool   // a positive control: it ran, sandboxed, status 0
}

// TestOneVerdictPerCommand (#29): every way the session's judge refuses
// a command (each form refused for a working directory outside the
// workspace, the validator's deny in each form, a command line that
// does not parse, arguments the shim refuses, an `ask` rule answered
// no, a request the judge cannot judge: badRequests) writes exactly one
// audit record, as does an allowed command (the positive control: it
// ran in the sandbox and wrote its file). Through the real shim
// (forward.Run), judge (shims.Judge) and bubblewrap. An agent's hook
// refusing a command: TestJudgeAnswersHooks.
func TestOneVerdictPerCommand(t *testing.T) {
	// The judge writes to the launcher's own $XDG_STATE_HOME.
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("LITE_SANDBOX_NO_AUDIT", "")
	f := newFixture(t)
	outside := filepath.Join(filepath.Dir(f.ws), "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"deny.sh": "rm -rf /\n", "ok.sh": "true\n"} {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	br := approval.New(approval.Options{Wait: time.Minute})
	s := f.openJudged(t, br)
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go answerNo(br, done)
	cases := []verdictCase{
		{name: "allowed", argv: []string{"bash", "-c", "echo ran > ran.txt # m-allowed"}, decision: "allow", ran: true},
		{name: "deny -c", argv: []string{"bash", "-c", "rm -rf / # m-deny-c"}, decision: "deny", rule: "fs.rm.root"},
		{name: "deny file", argv: []string{"bash", "deny.sh", "m-deny-file"}, decision: "deny", rule: "fs.rm.root"},
		{name: "deny stdin", argv: []string{"bash", "-s", "m-deny-stdin"}, stdin: "rm -rf /\n", decision: "deny", rule: "fs.rm.root"},
		{name: "outside -c", argv: []string{"bash", "-c", "true # m-out-c"}, outside: true, decision: "deny", reason: "outside the workspace"},
		{name: "outside file", argv: []string{"bash", filepath.Join(f.ws, "ok.sh"), "m-out-file"}, outside: true, decision: "deny", reason: "outside the workspace"},
		{name: "outside stdin", argv: []string{"bash", "-s", "m-out-stdin"}, outside: true, stdin: "true\n", decision: "deny", reason: "outside the workspace"},
		{name: "outside interactive", argv: []string{"bash", "-s", "m-out-tty"}, outside: true, tty: true, decision: "deny", reason: "outside the workspace"},
		{name: "parse error", argv: []string{"bash", "-c", "echo 'm-parse"}, decision: "deny"},
		{name: "bad arguments", argv: []string{"bash", "--no-such-flag", "-c", "true # m-args"}, decision: "deny", reason: "no-such-flag"},
		{name: "ask answered no", argv: []string{"bash", "-c", "touch asked-m-ask"}, decision: "ask"},
	}
	for _, c := range cases {
		status, _, stderr := f.shim(t, s, c)
		if c.ran != (status == 0) {
			t.Errorf("%s: status %d (stderr %q)", c.name, status, stderr)
		}
		marker := c.argv[len(c.argv)-1]
		marker = marker[strings.LastIndex(marker, "m-"):]
		recs := recordsWith(t, state, marker)
		if len(recs) != 1 {
			t.Errorf("%s: %d audit records of %s, want 1: %v", c.name, len(recs), marker, recs)
			continue
		}
		checkVerdict(t, c, recs[0])
	}
	if b, err := os.ReadFile(filepath.Join(f.ws, "ran.txt")); err != nil || string(b) != "ran\n" {
		t.Errorf("control: the allowed command did not run: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "asked-m-ask")); err == nil {
		t.Errorf("the ask rule's command ran after a no")
	}
	badRequests(t, f, s, state)
}

// badRequests: a request no shim sends but a process in the agent ring
// could (the judge's socket is in the session directory the ring
// shows), with a relative working directory or more descriptors than
// stdio, is refused and recorded once, as a deny with why; the same
// request with a good one runs (the control).
func badRequests(t *testing.T, f *fixture, s *launch.Session, state string) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, c := range []struct {
		name, marker, dir, reason string
		extra                     []*os.File
		ran                       bool
	}{
		{name: "good request", marker: "m-req-ok", dir: f.ws, ran: true},
		{name: "relative cwd", marker: "m-req-rel", dir: "ws", reason: "not absolute"},
		{name: "extra descriptors", marker: "m-req-fds", dir: f.ws, extra: []*os.File{null}, reason: "exactly its stdin, stdout and stderr"},
	} {
		req := worker.Request{Argv: []string{"bash", "-c", "true # " + c.marker}, Env: cmdEnv(f.home), Dir: c.dir, Extra: c.extra}
		status, err := worker.Run(context.Background(), filepath.Join(s.Dir, contract.JudgeName), req, null, null, null)
		if err != nil || (status == 0) != c.ran {
			t.Errorf("%s: status %d, %v", c.name, status, err)
		}
		recs := recordsWith(t, state, c.marker)
		if len(recs) != 1 {
			t.Errorf("%s: %d audit records, want 1: %v", c.name, len(recs), recs)
			continue
		}
		decision := "deny"
		if c.ran {
			decision = "allow"
		}
		checkVerdict(t, verdictCase{name: c.name, decision: decision, reason: c.reason, ran: c.ran}, recs[0])
	}
}

// checkVerdict compares a command's one record with what c expects.
func checkVerdict(t *testing.T, c verdictCase, r map[string]any) {
	t.Helper()
	if r["decision"] != c.decision || c.rule != "" && r["rule"] != c.rule {
		t.Errorf("%s: record %v, want decision %s rule %q", c.name, r, c.decision, c.rule)
	}
	reason, _ := r["reason"].(string)
	if !strings.Contains(reason, c.reason) || !c.ran && reason == "" {
		t.Errorf("%s: reason %q, want one with %q", c.name, reason, c.reason)
	}
	ran := r["sandbox"] == "sandboxed" && r["status"] == 0.0
	if ran != c.ran || !c.ran && r["status"] != -1.0 {
		t.Errorf("%s: record %v: ran %v, want %v", c.name, r, ran, c.ran)
	}
	if c.decision == "ask" && r["answer"] != string(approval.No) {
		t.Errorf("%s: record %v, want the answer no", c.name, r)
	}
}

// openJudged opens a session whose commands the real judge takes,
// with an ask rule whose questions br gets.
func (f *fixture) openJudged(t *testing.T, br *approval.Broker) *launch.Session {
	t.Helper()
	return f.openJudgedMeta(t, br, contract.Meta{Workspace: f.ws, Home: f.home, Mode: "on"})
}

// openJudgedMeta is openJudged with the session's metadata meta.
func (f *fixture) openJudgedMeta(t *testing.T, br *approval.Broker, meta contract.Meta) *launch.Session {
	t.Helper()
	o := f.options(t)
	o.PolicyTOML = append(append([]byte{}, policy.DefaultTOML()...), verdictAskRule...)
	o.Meta = meta
	o.Judge = func(dir, token string) (launch.Judge, error) {
		j, err := shims.NewJudge(dir, token, o.PolicyTOML, meta)
		if err == nil {
			j.Approvals = br
		}
		return j, err
	}
	s, err := launch.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// answerNo says no to every question of br until done, as a person
// with `lite-sandbox approve no` would.
func answerNo(br *approval.Broker, done <-chan struct{}) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		for _, q := range br.Pending() {
			br.Answer(q.ID, approval.No, "the test")
		}
	}
}

// shim runs c through a shim process of session s and returns its
// status, stdout and stderr.
func (f *fixture) shim(t *testing.T, s *launch.Session, c verdictCase) (int, string, string) {
	t.Helper()
	argv, _ := json.Marshal(c.argv)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(cmdEnv(f.home), envHelper+"=shim", "HELPER_ARGV="+string(argv), "HELPER_SESSION="+s.Dir)
	cmd.Dir = f.ws
	if c.outside {
		cmd.Dir = filepath.Join(filepath.Dir(f.ws), "outside")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &stdout, &stderr, strings.NewReader(c.stdin)
	if c.tty {
		ptm, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer ptm.Close()
		defer tty.Close()
		cmd.Stdin = tty
	}
	err = cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// recordsWith returns the audit records whose command has marker.
func recordsWith(t *testing.T, state, marker string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "lite-sandbox", "audit.jsonl"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		if cmd, _ := r["command"].(string); strings.Contains(cmd, marker) {
			out = append(out, r)
		}
	}
	return out
}
