// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentJobControl drives a real agent's TUI under `launch`, from a real
// job-control shell: Ctrl-Z (which the agent, in raw mode, reads and
// answers by stopping itself) gives the shell back with the job Stopped;
// fg brings the agent back, and it takes input again; the agent exits
// through its own keys (exit) with status 0; the terminal settings after equal
// those before. ready is what the agent's screen shows once it takes
// input.
func agentJobControl(t *testing.T, e *env, env []string, ready, launch string, exit func(*testing.T, *shellRun)) {
	s := startShell(t, append(append(append([]string{}, e.vars...), env...), "TERM=xterm-256color")...)
	before := filepath.Join(s.dir, "before")
	s.typeLine("cd " + e.ws + " && stty -g >" + before)
	s.typeLine(launch)
	s.scr.waitFor(t, ready)
	s.master.Write([]byte{0x1a})
	s.scr.waitFor(t, "Stopped")
	mark := s.scr.size()
	s.typeLine("fg")
	// The job is back: bash echoes its command line, the launcher puts
	// the terminal in raw mode again and the agent draws again. What it
	// redraws is its own choice (Claude's renderer may write only what
	// changed, so ready need not appear twice: seen under load, #29).
	s.scr.waitUntil(t, "the agent drawing again after fg", func() bool {
		after := s.scr.since(mark)
		i := strings.Index(after, "launch --sandbox on")
		return i >= 0 && strings.Contains(after[i:], "\x1b") && isRaw(s.termios(t))
	})
	// In raw mode nothing echoes but the agent: the keys on its screen
	// show it reads input again.
	s.master.Write([]byte("zqxj"))
	s.scr.waitFor(t, "zqxj")
	if !isRaw(s.termios(t)) {
		t.Errorf("the terminal is not raw again after fg")
	}
	// Exit with the agent's own keys, each sent once the screen answered
	// the one before (a key sent early on a busy machine would reach the
	// shell once the agent is gone: #29).
	prompts := s.scr.count("$ ")
	exit(t, s)
	s.scr.waitForCount(t, "$ ", prompts+1)
	after := filepath.Join(s.dir, "after")
	s.typeLine("echo status=$?; stty -g >" + after + "; echo sa''ved")
	s.scr.waitFor(t, "saved")
	if !strings.Contains(s.scr.buf.String(), "status=0") {
		t.Errorf("the agent did not exit with status 0:\n%s", s.scr.buf.String())
	}
	b1, err1 := os.ReadFile(before)
	b2, err2 := os.ReadFile(after)
	if err1 != nil || err2 != nil || len(b1) == 0 || string(b1) != string(b2) {
		t.Errorf("terminal settings differ after the agent (%v, %v):\nbefore %s\nafter  %s", err1, err2, b1, b2)
	}
}

func TestJobControlClaude(t *testing.T) {
	e := newEnv(t, agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197"), "true")
	// Past the first-run screens: onboarding done, the workspace trusted,
	// the API key approved (by its last 20 characters, as Claude keeps it).
	e.write("~/.claude.json", fmt.Sprintf(`{"hasCompletedOnboarding":true,"theme":"dark","projects":{%q:{"hasTrustDialogAccepted":true}},"customApiKeyResponses":{"approved":[%q]}}`,
		e.ws, secretKey[max(0, len(secretKey)-20):]))
	agentJobControl(t, e, claudeEnv(e), "shortcuts", binary+" launch --sandbox on claude", claudeExit)
}

func TestJobControlPi(t *testing.T) {
	e := newEnv(t, agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1"), "true")
	agentJobControl(t, e, piSetup(e), "32k (auto)", binary+" launch --sandbox on pi -- --provider mock --model mock-model --no-session", piExit)
}

// claudeExit: Ctrl-C clears the input; on an empty one Claude says
// "Press Ctrl-C again to exit" and exits at the next Ctrl-C within a
// short window. Each Ctrl-C goes only once the screen answered the last:
// the message again (the window had passed) asks for one more; the
// shell's prompt means done.
func claudeExit(t *testing.T, s *shellRun) {
	const again = "Press Ctrl-C again to exit"
	s.master.Write([]byte{0x03})
	s.scr.waitQuiet(t)
	prompts := s.scr.count("$ ")
	for s.scr.count("$ ") == prompts {
		n := s.scr.count(again)
		s.master.Write([]byte{0x03})
		s.scr.waitUntil(t, "the exit message or the shell", func() bool {
			return s.scr.count(again) > n || s.scr.count("$ ") > prompts
		})
	}
}

// piExit: Ctrl-C clears the input, Ctrl-D on an empty one exits.
func piExit(t *testing.T, s *shellRun) {
	s.master.Write([]byte{0x03})
	s.scr.waitQuiet(t)
	s.master.Write([]byte{0x04})
}
