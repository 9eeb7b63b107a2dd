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
	for _, a := range argv {
		q = append(q, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	script := fmt.Sprintf("cd '%s' || exit 1\nstty -g > %s/stty.before\n%s\necho $? > %s/status\nstty -g > %s/stty.after\n",
		e.ws, dir, strings.Join(q, " "), dir, dir)
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
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	u.t.Fatalf("waiting for %s: the terminal shows:\n%s", what, u.screen())
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
	u.waitFor("launch to exit", func() bool { _, err := os.Stat(filepath.Join(u.dir, "stty.after")); return err == nil })
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

// waitFile waits until the workspace file rel exists.
func (e *env) waitFile(u *tui, rel string) {
	e.t.Helper()
	u.waitFor(rel+" in the workspace", func() bool { _, err := os.Stat(filepath.Join(e.ws, rel)); return err == nil })
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
			u.typeText("!", false)
			u.typeText(e.probe("claude-bang"), true)
			e.waitFile(u, ".marker-claude-bang")
			u.typeText("run the command", true)
			u.waitScreen(finalText)
			res := e.result(u.screen(), "")
			u.typeText("/exit", true)
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
