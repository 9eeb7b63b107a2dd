// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The interactive TUIs under `lite-sandbox launch`, driven in tmux (a
// real terminal emulator, so that what the test reads is what a user
// sees): a prompt typed, the mock's answer rendered, a tool call run,
// `!cmd` run in the command sandbox, a clean exit, and the terminal's
// settings (stty -g before and after launch) restored.

// tui is one launch in a tmux session of its own (private socket).
type tui struct {
	t    *testing.T
	sock string
	dir  string
}

// needTmux finds tmux, or skips (fails under scripts/test, which
// installs it).
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("LITE_SANDBOX_AGENTS_BIN") != "" {
			t.Fatal("tmux is missing: scripts/test installs it (apt-get install tmux)")
		}
		t.Skip("tmux not found: the TUI tests need it")
	}
}

// startTUI runs argv (a launch command line) in the workspace in a new
// tmux session of 150x45, with the env's variables and extra.
func (e *env) startTUI(extra []string, argv ...string) *tui {
	t := e.t
	t.Helper()
	needTmux(t)
	dir := t.TempDir()
	u := &tui{t: t, sock: filepath.Join(dir, "tmux.sock"), dir: dir}
	var q []string
	if e.cred != nil {
		// The launch as e's unprivileged user; the script's own steps
		// (stty, the status file) stay the test's.
		e.chownTree()
		argv = append([]string{"setpriv", "--reuid", fmt.Sprint(e.cred.Uid), "--regid", fmt.Sprint(e.cred.Gid), "--clear-groups", "--"}, argv...)
	}
	for _, a := range argv {
		q = append(q, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	// stty.after appears whole (renamed into place), so that a test that
	// sees it never reads it half written.
	script := fmt.Sprintf("cd '%[1]s' || exit 1\nstty -g > %[2]s/stty.before\n%[3]s\necho $? > %[2]s/status\nstty -g > %[2]s/stty.after.tmp && mv %[2]s/stty.after.tmp %[2]s/stty.after\n",
		e.ws, dir, strings.Join(q, " "))
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := "set -g remain-on-exit on\nset -g history-limit 5000\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("tmux", "-S", u.sock, "-f", filepath.Join(dir, "tmux.conf"), "new-session", "-d", "-s", "t", "-x", "150", "-y", "45",
		"/bin/sh "+filepath.Join(dir, "run.sh"))
	cmd.Env = append(append([]string{}, e.vars...), extra...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-S", u.sock, "kill-server").Run() })
	return u
}

func (u *tui) tmux(args ...string) string {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-S", u.sock}, args...)...).CombinedOutput()
	if err != nil {
		u.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the pane's text with its scrollback, wrapped lines joined.
func (u *tui) screen() string { return u.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t") }

// typeText types s as keys, then Enter when enter is set.
func (u *tui) typeText(s string, enter bool) {
	u.tmux("send-keys", "-t", "t", "-l", s)
	if enter {
		time.Sleep(300 * time.Millisecond) // let the TUI take the text before Enter
		u.tmux("send-keys", "-t", "t", "Enter")
	}
}

func (u *tui) keys(k ...string) { u.tmux(append([]string{"send-keys", "-t", "t"}, k...)...) }

// waitFor waits (a hang guard, not a timing) until ok holds, and fails
// with the screen otherwise.
func (u *tui) waitFor(what string, ok func() bool) {
	u.t.Helper()
	if !u.poll(45*time.Second, ok) {
		u.t.Fatalf("waiting for %s: the terminal shows:\n%s", what, u.screen())
	}
}

func (u *tui) poll(d time.Duration, ok func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return false
}

// submit types s and presses Enter until ok holds: a TUI that takes
// fast keys for a paste (Codex) may take that Enter for a newline, and
// an Enter on an empty prompt does nothing.
func (u *tui) submit(s, what string, ok func() bool) {
	u.t.Helper()
	u.typeText(s, false)
	for i := 0; i < 10; i++ {
		time.Sleep(300 * time.Millisecond)
		u.keys("Enter")
		if u.poll(3*time.Second, ok) {
			return
		}
	}
	u.waitFor(what, ok)
}

func (u *tui) waitScreen(want string) {
	u.t.Helper()
	u.waitFor(fmt.Sprintf("%q on the screen", want), func() bool { return strings.Contains(u.screen(), want) })
}

// finish waits for launch to exit and checks its status and that the
// terminal's settings are what they were before.
func (u *tui) finish(want int) {
	u.t.Helper()
	status := filepath.Join(u.dir, "status")
	u.waitFor("launch to exit", u.exited)
	b, _ := os.ReadFile(status)
	if got := strings.TrimSpace(string(b)); got != fmt.Sprint(want) {
		u.t.Errorf("launch exited with %s, want %d; the terminal shows:\n%s", got, want, u.screen())
	}
	before, _ := os.ReadFile(filepath.Join(u.dir, "stty.before"))
	after, _ := os.ReadFile(filepath.Join(u.dir, "stty.after"))
	if len(before) == 0 || string(before) != string(after) {
		u.t.Errorf("terminal settings not restored:\nbefore %s\nafter  %s", before, after)
	}
}

func (u *tui) exited() bool { _, err := os.Stat(filepath.Join(u.dir, "stty.after")); return err == nil }

func (u *tui) shows(s string) func() bool {
	return func() bool { return strings.Contains(u.screen(), s) }
}

// claudeTUIState is what a user who has used Claude before has: onboarding
// done, the workspace trusted, the API key approved (the TUI asks for
// each otherwise).
func claudeTUIState(e *env) {
	e.write("~/.claude.json", mustJSON(e.t, map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 3,
		"customApiKeyResponses": map[string]any{"approved": []string{secretKey[max(0, len(secretKey)-20):]}},
		"projects":              map[string]any{e.ws: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	}))
}

// claudeShellMode types "!" on Claude's empty prompt until Claude shows
// its shell mode: a key typed while the TUI still starts up may be lost,
// and the command would then go to the model as a prompt.
func (u *tui) claudeShellMode() {
	u.t.Helper()
	for i := 0; i < 10; i++ {
		u.typeText("!", false)
		if u.poll(3*time.Second, u.shows("for shell mode")) {
			return
		}
		u.keys("BSpace")
	}
	u.waitScreen("for shell mode")
}

// TestClaudeTUI: `lite-sandbox launch claude` in a terminal: the prompt
// typed reaches the mock, its Bash call runs in the sandbox, its answer
// is rendered; `!cmd` (bash mode) runs in the command sandbox; /exit
// leaves with status 0 and the terminal as it was. The baseline is the
// same session with Claude run directly: the TUI behaves the same, and
// its `!cmd` runs on the host (so the probe's check can fail).
func TestClaudeTUI(t *testing.T) {
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	for _, mode := range []string{"launch", "direct"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, bin, "")
			e.sentinel()
			e.setCommand(allowedCommand(e, "ANTHROPIC_API_KEY"))
			claudeTUIState(e)
			argv := []string{binary, "launch", "--sandbox", "on", "claude", "--", "--allowedTools", "Bash"}
			if mode == "direct" {
				argv = []string{filepath.Join(bin, "claude"), "--allowedTools", "Bash"}
			}
			u := e.startTUI(claudeEnv(e), argv...)
			u.waitScreen("for shortcuts")
			u.claudeShellMode()
			u.submit(e.probe("claude-bang"), "the !cmd's marker", e.probeDone("claude-bang"))
			u.submit("run the command", "the answer", u.shows(finalText))
			res := e.result(u.screen(), "")
			u.submit("/exit", "launch to exit", u.exited)
			u.finish(0)
			if mode == "direct" {
				if e.sandboxed("claude-bang") == "" {
					t.Errorf("baseline: Claude's own !cmd passes as sandboxed: the check cannot fail")
				}
				return
			}
			e.checkProbe("claude-bang", u.screen(), "")
			e.checkAllowed(res, finalText, "")
		})
	}
}

// TestCodexTUI: Codex's TUI under launch: `!cmd`, which Codex runs with
// the user's shell and never shows our hook, runs in the command
// sandbox; a prompt gets the mock's tool call (through the hook) and its
// answer rendered; /quit leaves with status 0 and the terminal restored.
// The baseline, Codex run directly, runs the same `!cmd` on the host.
func TestCodexTUI(t *testing.T) {
	bin := agentBin(t, "codex", "npm install -g @openai/codex@0.171.0")
	for _, mode := range []string{"launch", "direct"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, bin, "")
			e.sentinel()
			e.setCommand(allowedCommand(e, "MOCK_API_KEY"))
			env := codexSetup(e)
			// A user who trusted the project before (no trust dialog).
			cfg := mustRead(t, filepath.Join(e.home, ".codex", "config.toml"))
			e.write("~/.codex/config.toml", cfg+"\n[projects."+strconv.Quote(e.ws)+"]\ntrust_level = \"trusted\"\n")
			args := []string{"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries"}
			argv := append([]string{binary, "launch", "--sandbox", "on", "codex", "--"}, args...)
			if mode == "direct" {
				argv = append([]string{filepath.Join(bin, "codex"), "--dangerously-bypass-approvals-and-sandbox"}, args...)
			}
			u := e.startTUI(append(env, "TERM=xterm-256color"), argv...)
			u.waitScreen("Ask Codex to do anything")
			u.submit("!"+e.probe("codex-bang"), "the !cmd's marker", e.probeDone("codex-bang"))
			if mode == "direct" {
				if e.sandboxed("codex-bang") == "" {
					t.Errorf("baseline: Codex's own !cmd passes as sandboxed: the check cannot fail")
				}
			} else {
				e.checkProbe("codex-bang", u.screen(), "")
			}
			u.submit("run the command", "the answer", u.shows(finalText))
			if mode == "launch" {
				e.checkAllowed(e.result(u.screen(), ""), finalText, "")
			}
			u.submit("/quit", "launch to exit", u.exited)
			u.finish(0)
		})
	}
}

// TestPiTUI: Pi's TUI under launch: `!cmd` and `!!cmd` run in the
// command sandbox, a prompt gets the mock's bash call and answer
// rendered, /quit leaves with status 0 and the terminal restored, and the
// session is saved in the user's ~/.pi/agent/sessions (history). The
// baseline, Pi run directly, runs the same `!cmd` on the host.
func TestPiTUI(t *testing.T) {
	bin := agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1")
	for _, mode := range []string{"launch", "direct"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, bin, "")
			e.sentinel()
			e.setCommand(allowedCommand(e, "MOCK_API_KEY"))
			env := piSetup(e)
			args := []string{"--provider", "mock", "--model", "mock-model"}
			argv := append([]string{binary, "launch", "--sandbox", "on", "pi", "--"}, args...)
			if mode == "direct" {
				argv = append([]string{filepath.Join(bin, "pi"), "--offline"}, args...)
			}
			u := e.startTUI(append(env, "TERM=xterm-256color"), argv...)
			u.waitScreen("! bash")
			for _, bang := range []string{"!", "!!"} {
				name := "pi-" + strings.Repeat("bang", len(bang))
				u.submit(bang+e.probe(name), "the marker of "+bang+"cmd", e.probeDone(name))
				if mode == "direct" {
					if e.sandboxed(name) == "" {
						t.Errorf("baseline: Pi's own %scmd passes as sandboxed: the check cannot fail", bang)
					}
				} else {
					e.checkProbe(name, u.screen(), "")
				}
			}
			u.submit("run the command", "the answer", u.shows(finalText))
			if mode == "launch" {
				e.checkAllowed(e.result(u.screen(), ""), finalText, "")
			}
			u.submit("/quit", "launch to exit", u.exited)
			u.finish(0)
			if s, _ := filepath.Glob(filepath.Join(e.home, ".pi", "agent", "sessions", "*", "*.jsonl")); len(s) == 0 {
				t.Errorf("no session saved in ~/.pi/agent/sessions")
			}
		})
	}
}
