// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const resumePrefix = "lite-sandbox: to resume this session in the sandbox: lite-sandbox launch "

// resumeArgs is the agent's arguments from the launcher's resume line.
func resumeArgs(t *testing.T, agent, stderr string) []string {
	t.Helper()
	for _, l := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(l, resumePrefix+agent+" -- "); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatalf("no resume line for %s; stderr:\n%s", agent, stderr)
	return nil
}

// TestResumeLine: after each real CLI ends a session, launch prints the
// routed way back in, and following it resumes that session (the CLIs
// refuse an unknown session id, so a wrong id fails the second run).
func TestResumeLine(t *testing.T) {
	t.Parallel()
	t.Run("claude", func(t *testing.T) {
		e := newEnv(t, agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197"), "true")
		_, stderr, code := runClaude(e)
		if code != 0 {
			t.Fatalf("claude: status %d\n%s", code, stderr)
		}
		args := resumeArgs(t, "claude", stderr)
		if len(args) != 2 || args[0] != "--resume" {
			t.Fatalf("resume args %q", args)
		}
		if _, err := os.Stat(filepath.Join(e.home, ".claude", "projects")); err != nil {
			t.Fatal(err)
		}
		e.setCommand("true")
		out, stderr, code := e.launch("claude", claudeEnv(e), append(args, "-p", "again", "--dangerously-skip-permissions")...)
		if code != 0 || !strings.Contains(out, finalText) {
			t.Fatalf("resume: status %d\n%s\n%s", code, out, stderr)
		}
	})
	t.Run("codex", func(t *testing.T) {
		e := newEnv(t, agentBin(t, "codex", "npm install -g @openai/codex@0.171.0"), "true")
		_, stderr, code := runCodex(e)
		if code != 0 {
			t.Fatalf("codex: status %d\n%s", code, stderr)
		}
		args := resumeArgs(t, "codex", stderr)
		if len(args) != 3 || args[0] != "exec" || args[1] != "resume" {
			t.Fatalf("resume args %q", args)
		}
		e.setCommand("true")
		out, stderr, code := e.launch("codex", codexSetup(e), append(args, "--skip-git-repo-check", "--json",
			"--disable", "plugins", "-c", "analytics.enabled=false", "--disable", "unbounded_connection_retries", "again")...)
		if code != 0 || !strings.Contains(out, finalText) {
			t.Fatalf("resume: status %d\n%s\n%s", code, out, stderr)
		}
	})
	t.Run("pi", func(t *testing.T) {
		e := newEnv(t, agentBin(t, "pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1"), "true")
		if err := os.MkdirAll(filepath.Join(e.home, ".pi", "agent", "sessions"), 0o700); err != nil {
			t.Fatal(err)
		}
		pi := []string{"--provider", "mock", "--model", "mock-model"}
		_, stderr, code := e.launch("pi", piSetup(e), append(pi, "-p", "run the command")...)
		if code != 0 {
			t.Fatalf("pi: status %d\n%s", code, stderr)
		}
		args := resumeArgs(t, "pi", stderr)
		if len(args) != 2 || args[0] != "--session" {
			t.Fatalf("resume args %q", args)
		}
		e.setCommand("true")
		out, stderr, code := e.launch("pi", piSetup(e), append(append(pi, args...), "-p", "again")...)
		if code != 0 || !strings.Contains(out, finalText) {
			t.Fatalf("resume: status %d\n%s\n%s", code, out, stderr)
		}
	})
}
