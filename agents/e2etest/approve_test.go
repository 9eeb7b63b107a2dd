// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/mockmodel"
)

// Approvals (#21, docs/validator.md §8): a command an `ask` rule holds
// back runs only after a person's yes, given on the launcher's confirm line
// or with `lite-sandbox approve` from another terminal; nothing inside
// either ring can answer; every answer is in the audit log.

// askRule is the user's policy file of these tests: an ask rule for
// `touch asked*`, and nothing else changed.
const askRule = `[[rule]]
id = "test.ask"
decision = "ask"
command = "touch"
args = ["asked*"]
reason = "Touching an asked file needs a person (REASON-MARK)."
hint = "If the person says no, leave it (HINT-MARK)."
match = ["touch asked.txt"]
not_match = ["touch other.txt"]
`

// withAskRule writes askRule as e's user policy file.
func (e *env) withAskRule() { e.write("~/.config/lite-sandbox/config.toml", askRule) }

// lsCmd is the lite-sandbox binary run as e's user in the workspace.
func (e *env) lsCmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = e.ws
	cmd.Env = append([]string{}, e.vars...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	e.credential(cmd)
	if e.wrap != nil {
		e.wrap(cmd)
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// approve runs `lite-sandbox approve ARGS` and returns its output.
func (e *env) approve(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := e.lsCmd(ctx, append([]string{"approve"}, args...)...).CombinedOutput()
	return string(out), err
}

// pendingID waits (a hang guard) for one question of rule to be listed
// by `lite-sandbox approve` and returns its id.
func (e *env) pendingID(rule string) string {
	e.t.Helper()
	var last string
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, err := e.approve()
		last = out
		if err != nil {
			continue
		}
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 3 && f[3] == rule {
				return f[0]
			}
		}
	}
	e.t.Fatalf("no question of %s was listed; lite-sandbox approve printed:\n%s", rule, last)
	return ""
}

// auditRecords reads e's audit log.
func (e *env) auditRecords() []map[string]any {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.home, ".local", "state", "lite-sandbox", "audit.jsonl"))
	if err != nil {
		e.t.Fatalf("audit log: %v", err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r map[string]any
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// askRecord is the audit record of the test rule's command, with the
// answer asked for.
func (e *env) askRecord(answer, how string) map[string]any {
	e.t.Helper()
	recs := e.auditRecords()
	for _, r := range recs {
		if r["rule"] == "test.ask" && r["answer"] == nilIfEmpty(answer) && r["answered_how"] == how {
			return r
		}
	}
	e.t.Errorf("no audit record of test.ask answered %q by %s; records: %v", answer, how, recs)
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// approveProbe is run by /usr/bin/python3 (a program, not a shell: it runs
// in the agent ring itself) under `launch exec`: it tries every way in
// the ring to the session's approval socket, then runs the asked
// command through the shim (bash), which waits for a person, and a
// sandboxed command that looks for the socket too.
const approveProbe = `
import os, socket, subprocess, sys
run = os.environ.get("XDG_RUNTIME_DIR", "")
sess = os.path.basename(os.environ.get("LITE_SANDBOX_SESSION", ""))
out = []
d = os.path.join(run, "lite-sandbox", "approve")
out.append("ring_dir=" + ("visible" if os.path.exists(d) else "absent"))
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(os.path.join(d, sess + ".sock"))
    s.sendall(b'{"op":"list"}\n')
    out.append("ring_connect=ok " + s.recv(4096).decode())
except OSError as e:
    out.append("ring_connect=" + type(e).__name__)
out.append("session=" + sess)
open("ring-probe.txt", "w").write("\n".join(out) + "\n")
r = subprocess.run(["bash", "-c", "touch " + sys.argv[1] + "; test -e " + d + " && echo sbx_dir=visible > sbx-probe.txt || echo sbx_dir=absent > sbx-probe.txt"])
sys.exit(r.returncode)
`

// TestApproveExec: under `launch exec`, `lite-sandbox approve` answers
// the question of a command an ask rule holds back: yes runs it (in the
// command sandbox), no refuses it with the explanation, and without
// --ask-wait it is refused at once with one that says how to approve.
// The ring and the command sandbox see no approval socket; the host
// side (the approve command, as the same user) reaches it: the positive
// control. Root and unprivileged.
func TestApproveExec(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		e.withAskRule()
		e.write("probe.py", approveProbe)
		run := func(file string, wait string) (*exec.Cmd, *bytes.Buffer) {
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			t.Cleanup(cancel)
			args := []string{"launch", "--sandbox", "on"}
			if wait != "" {
				args = append(args, "--ask-wait", wait)
			}
			e.chownTree()
			cmd := e.lsCmd(ctx, append(args, "exec", "--", "/usr/bin/python3", "probe.py", file)...)
			var errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &errb, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			return cmd, &errb
		}

		// Yes, once.
		cmd, out := run("asked-yes.txt", "60s")
		id := e.pendingID("test.ask")
		if o, err := e.approve("show", id); err != nil || !strings.Contains(o, "REASON-MARK") || !strings.Contains(o, "touch asked-yes.txt") {
			t.Errorf("approve show %s: %v\n%s", id, err, o)
		}
		if o, err := e.approve("yes", id); err != nil {
			t.Fatalf("approve yes: %v\n%s", err, o)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("launch exec after yes: %v\n%s", err, out)
		}
		if _, err := os.Stat(filepath.Join(e.ws, "asked-yes.txt")); err != nil {
			t.Errorf("yes: the command did not run: %v\n%s", err, out)
		}
		probe, _ := os.ReadFile(filepath.Join(e.ws, "ring-probe.txt"))
		for _, want := range []string{"ring_dir=absent", "ring_connect=FileNotFoundError", "session=s-"} {
			if !strings.Contains(string(probe), want) {
				t.Errorf("the ring reached the approval socket: want %s in\n%s", want, probe)
			}
		}
		sbx, _ := os.ReadFile(filepath.Join(e.ws, "sbx-probe.txt"))
		if strings.TrimSpace(string(sbx)) != "sbx_dir=absent" {
			t.Errorf("the command sandbox: %q, want sbx_dir=absent", sbx)
		}
		e.askRecord("once", "approve")

		// No.
		cmd, out = run("asked-no.txt", "60s")
		id = e.pendingID("test.ask")
		if o, err := e.approve("no", id); err != nil {
			t.Fatalf("approve no: %v\n%s", err, o)
		}
		if err := cmd.Wait(); err == nil {
			t.Errorf("launch exec after no: status 0\n%s", out)
		}
		if _, err := os.Stat(filepath.Join(e.ws, "asked-no.txt")); err == nil {
			t.Errorf("no: the command ran")
		}
		if !strings.Contains(out.String(), "The person said no") || !strings.Contains(out.String(), "HINT-MARK") {
			t.Errorf("no: the refusal does not say so:\n%s", out)
		}
		e.askRecord("no", "approve")

		// No wait: refused at once, with how to approve next time.
		cmd, out = run("asked-none.txt", "")
		if err := cmd.Wait(); err == nil {
			t.Errorf("launch exec without --ask-wait: status 0\n%s", out)
		}
		if _, err := os.Stat(filepath.Join(e.ws, "asked-none.txt")); err == nil {
			t.Errorf("without a wait: the command ran")
		}
		if !strings.Contains(out.String(), "--ask-wait") || !strings.Contains(out.String(), "lite-sandbox approve") {
			t.Errorf("without a wait: the refusal does not say how to approve:\n%s", out)
		}
		e.askRecord("", "none")
	})
}

// claudeBypassState is claudeTUIState with bypass mode's warning
// accepted (users of --dangerously-skip-permissions said yes once).
func claudeBypassState(e *env) {
	claudeTUIState(e)
	e.write("~/.claude/settings.json", `{"skipDangerousModePermissionPrompt": true}`)
}

// askTUI is an agent whose hook asks the person on the launcher's
// confirm line.
type askTUI struct {
	bin, cli string
	// start returns the launch command line and its environment, for
	// e with its ask rule and mock command.
	start func(e *env) (argv, env []string)
	// ready is on the screen when the TUI takes a prompt, quit its exit
	// command.
	ready, quit string
}

// confirmLine is on the screen while the launcher's confirm line asks.
const confirmLine = "y: yes, run it once"

// warmUp is the model's first command in the confirm line's tests: once
// the screen shows it, the prompt was taken, and the test stops
// pressing Enter, which would answer the line that follows (a no).
const warmUp = "echo warm-up"

// submitPrompt submits the prompt, pressing Enter until the model's
// first command (warmUp) shows.
func (u *tui) submitPrompt() { u.submit("run the command", "the prompt to be taken", u.shows(warmUp)) }

// lastResult is the last tool result the mock received.
func (e *env) lastResult() string {
	rs := e.mock.ToolResults()
	if len(rs) == 0 {
		e.t.Fatalf("the mock got no tool result")
	}
	return rs[len(rs)-1]
}

// testAskTUI: under launch, a command of an ask rule shows the
// launcher's confirm line with the rule, its reason and hint and the
// command; y runs it in the command sandbox (the probe's facts) and the
// audit record says it was answered on the confirm line; Esc (escape
// class 64) or another key leaves it unrun, the model reads that the
// person said no, and the audit record says so. The baseline is a
// command no rule holds back: no line, it just runs. Root and
// unprivileged.
func testAskTUI(t *testing.T, a askTUI) {
	for _, c := range []struct {
		name, key string
		ran       bool
	}{{"yes", "y", true}, {"no", "Escape", false}, {"other-key", "Enter", false}, {"baseline", "", true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			file := "asked.txt"
			if c.key == "" {
				file = "other.txt"
			}
			mk := func(t *testing.T) *env {
				e := newEnv(t, a.bin, "")
				e.sentinel()
				e.withAskRule()
				e.script(mockmodel.Turn{mockmodel.Shell(warmUp)}, mockmodel.Turn{mockmodel.Shell("touch " + file + "; " + e.probe("ask-"+c.name))})
				return e
			}
			asUsers(t, mk, a.cli, func(t *testing.T, e *env) { askTUICase(t, e, a, c.name, c.key, file, c.ran) })
		})
	}
}

func askTUICase(t *testing.T, e *env, a askTUI, name, key, file string, ran bool) {
	argv, env := a.start(e)
	u := e.startTUI(env, argv...)
	u.waitScreen(a.ready)
	u.submitPrompt()
	if key == "" {
		u.waitFor("the answer", u.shows(finalText))
		if strings.Contains(u.screen(), confirmLine) {
			t.Errorf("baseline: a confirm line for a command no rule holds back:\n%s", u.screen())
		}
	} else {
		u.waitFor("the confirm line", u.shows(confirmLine))
		scr := u.screen()
		for _, want := range []string{"test.ask asks a person", "REASON-MARK", "HINT-MARK", "run: touch " + file} {
			if !strings.Contains(scr, want) {
				t.Errorf("the confirm line does not show %q:\n%s", want, scr)
			}
		}
		u.keys(key)
		u.waitFor("the line to close", func() bool { return !strings.Contains(u.screen(), confirmLine) })
		u.waitFor("the answer", u.shows(finalText))
	}
	_, err := os.Stat(filepath.Join(e.ws, file))
	if got := err == nil; got != ran {
		t.Errorf("%s ran: %v, want %v; the terminal shows:\n%s", file, got, ran, u.screen())
	}
	var res string
	if !ran {
		res = e.lastResult()
	}
	u.submit(a.quit, "launch to exit", u.exited)
	u.finish(0)
	switch {
	case name == "yes":
		e.checkProbe("ask-yes", u.screen(), "")
		e.askRecord("once", "confirm")
	case !ran:
		if e.probeFacts("ask-"+name) != nil {
			t.Errorf("%s: the probe ran", name)
		}
		if !strings.Contains(res, "the person said no") {
			t.Errorf("%s: the model read %q", name, res)
		}
		e.askRecord("no", "confirm")
	}
}

// TestClaudeAskTUI: Claude in bypass mode (where Claude asks nothing of
// its own): its PreToolUse hook waits while the launcher asks.
func TestClaudeAskTUI(t *testing.T) {
	testAskTUI(t, askTUI{
		bin: agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197"), cli: "claude",
		start: func(e *env) ([]string, []string) {
			claudeBypassState(e)
			return []string{binary, "launch", "--sandbox", "on", "claude", "--", "--dangerously-skip-permissions"}, claudeEnv(e)
		},
		ready: "bypass permissions on", quit: "/exit",
	})
}

// TestPiAskTUI: Pi, whose extension's tool_call handler waits while the
// launcher asks.
func TestPiAskTUI(t *testing.T) {
	testAskTUI(t, askTUI{
		bin: agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1"), cli: "pi",
		start: func(e *env) ([]string, []string) {
			env := append(piSetup(e), "TERM=xterm-256color")
			return []string{binary, "launch", "--sandbox", "on", "pi", "--", "--provider", "mock", "--model", "mock-model"}, env
		},
		ready: "! bash", quit: "/quit",
	})
}

// approvedLaunch runs `lite-sandbox launch --ask-wait 60s ARGS` (the
// agent's mock command touches asked.txt) and answers its question with
// `lite-sandbox approve yes`: the command runs, and the audit record
// says who answered.
func (e *env) approvedLaunch(extraEnv []string, args ...string) {
	t := e.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	e.chownTree()
	cmd := e.lsCmd(ctx, append([]string{"launch", "--sandbox", "on", "--ask-wait", "60s"}, args...)...)
	cmd.Env = append(cmd.Env, extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	id := e.pendingID("test.ask")
	if o, err := e.approve("yes", id); err != nil {
		t.Fatalf("approve yes: %v\n%s", err, o)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("launch: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(e.ws, "asked.txt")); err != nil {
		t.Errorf("yes: the command did not run\n%s", out.String())
	}
	e.askRecord("once", "approve")
	os.Remove(filepath.Join(e.ws, "asked.txt"))
}

// refusedAtOnce checks what the model read of an ask command in a
// session without a wait: refused, and told how to approve.
func (e *env) refusedAtOnce(res string) {
	e.t.Helper()
	if !strings.Contains(res, "--ask-wait") || !strings.Contains(res, "REASON-MARK") {
		e.t.Errorf("without a wait: the model read %q", res)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "asked.txt")); err == nil {
		e.t.Errorf("without a wait: the command ran")
	}
	e.askRecord("", "none")
}

// TestClaudeAskPrint: Claude run without a terminal (-p), where no
// prompt of its own can ask: with --ask-wait the command waits for
// `lite-sandbox approve`, and yes runs it; without, it is refused at
// once and the model reads how a person can approve next time. Root and
// unprivileged.
func TestClaudeAskPrint(t *testing.T) {
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	mk := func(t *testing.T) *env {
		e := newEnv(t, bin, "touch asked.txt")
		e.withAskRule()
		return e
	}
	asUsers(t, mk, "claude", func(t *testing.T, e *env) {
		e.approvedLaunch(claudeEnv(e), "claude", "--", "-p", "run the command", "--dangerously-skip-permissions", "--output-format", "json")
		e.setCommand("touch asked.txt")
		stdout, stderr, _ := runClaude(e)
		e.refusedAtOnce(e.result(stdout, stderr))
	})
}

// TestCodexAskExec: `codex exec` has no prompt of its own that our hook
// can make ask (docs/validator.md §8.4): an ask rule's command passes
// its hook and waits in the shim for `lite-sandbox approve`; yes runs
// it, and without a wait it is refused at once with how to approve.
func TestCodexAskExec(t *testing.T) {
	bin := agentBin(t, "codex", "npm install -g @openai/codex@0.171.0")
	e := newEnv(t, bin, "touch asked.txt")
	e.withAskRule()
	e.approvedLaunch(codexSetup(e), "codex", "--", "exec", "--skip-git-repo-check", "--json",
		"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries", "run the command")
	e.setCommand("touch asked.txt")
	stdout, stderr, _ := runCodex(e)
	e.refusedAtOnce(e.result(stdout, stderr))
}

// TestPiAskTwoCalls: two ask commands in one reply of the model (Pi runs
// them at once) get one confirm line each, in turn: yes to the first
// runs it, no to the second leaves it unrun.
func TestPiAskTwoCalls(t *testing.T) {
	bin := agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1")
	e := newEnv(t, bin, "")
	e.withAskRule()
	e.script(mockmodel.Turn{mockmodel.Shell(warmUp)}, mockmodel.Turn{mockmodel.Shell("touch asked-1.txt"), mockmodel.Shell("touch asked-2.txt")})
	env := append(piSetup(e), "TERM=xterm-256color")
	u := e.startTUI(env, binary, "launch", "--sandbox", "on", "pi", "--", "--provider", "mock", "--model", "mock-model")
	u.waitScreen("! bash")
	dialogFor := func(cmd string) func() bool {
		return func() bool {
			s := u.screen()
			i := strings.LastIndex(s, "asks a person")
			return i >= 0 && strings.Contains(s[i:], "run: "+cmd) && strings.Contains(s[i:], confirmLine)
		}
	}
	u.submitPrompt()
	u.waitFor("the first line", dialogFor("touch asked-1.txt"))
	u.keys("y")
	u.waitFor("the second line", dialogFor("touch asked-2.txt"))
	u.keys("Escape")
	u.waitFor("the answer", u.shows(finalText))
	u.submit("/quit", "launch to exit", u.exited)
	u.finish(0)
	if _, err := os.Stat(filepath.Join(e.ws, "asked-1.txt")); err != nil {
		t.Errorf("yes to the first: it did not run\n%s", u.screen())
	}
	if _, err := os.Stat(filepath.Join(e.ws, "asked-2.txt")); err == nil {
		t.Errorf("no to the second: it ran")
	}
}
