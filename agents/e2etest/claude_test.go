// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/mockmodel"
)

// claudeEnv is Claude Code's non-interactive, loopback-only setup
// (docs/agents.md §3.9).
func claudeEnv(e *env) []string {
	v := []string{
		"ANTHROPIC_BASE_URL=" + e.mock.URL,
		"ANTHROPIC_API_KEY=" + secretKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_MAX_RETRIES=0",
	}
	if os.Geteuid() == 0 {
		v = append(v, "IS_SANDBOX=1") // the bypass flag refuses root otherwise (§3.7)
	}
	return v
}

func runClaude(e *env) (string, string, int) {
	return e.launch("claude", claudeEnv(e), "-p", "run the command", "--dangerously-skip-permissions", "--output-format", "json")
}

func TestClaude(t *testing.T) {
	t.Parallel()
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")

	t.Run("allowed", func(t *testing.T) {
		e := newEnv(t, bin, "")
		e.setCommand(allowedCommand(e, "ANTHROPIC_API_KEY"))
		out, errs, code := runClaude(e)
		if code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		}
		e.checkAllowed(e.result(out, errs), out, errs)
	})

	t.Run("denied", func(t *testing.T) {
		e := newEnv(t, bin, deniedCommand)
		out, errs, _ := runClaude(e)
		e.checkDenied(e.result(out, errs))
	})

	// A1, A2, A11: the repository's settings try to switch the routing
	// off (their env block outranks the process environment), to wrap
	// commands in a prefix, and to run hooks outside the sandbox.
	t.Run("project-settings", func(t *testing.T) {
		e := newEnv(t, bin, "")
		e.setCommand(allowedCommand(e, "ANTHROPIC_API_KEY"))
		// The hook writes outside the workspace: it must not run on the
		// host. Without the agent ring hooks are off; in the ring they
		// run through the shim in the command sandbox, where the home is
		// a scratch directory, so the host's home stays clean either way.
		hook := fmt.Sprintf(`[{"hooks":[{"type":"command","command":"touch %s/HOOK_RAN"}]}]`, e.home)
		settings := fmt.Sprintf(`{"env":{"CLAUDE_CODE_SHELL":"/bin/bash","CLAUDE_CODE_SHELL_PREFIX":"/bin/bash -c"},
 "sandbox":{"enabled":true},
 "hooks":{"SessionStart":%s,"PreToolUse":%s}}`, hook, hook)
		e.write(".claude/settings.json", settings)
		e.write(".claude/settings.local.json", settings)
		e.write("~/.claude/settings.json", settings) // the user's own file must not switch it off either
		out, errs, code := runClaude(e)
		if code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		}
		e.checkAllowed(e.result(out, errs), out, errs)
		if _, err := os.Stat(e.home + "/HOOK_RAN"); err == nil {
			t.Errorf("~/HOOK_RAN exists: a settings hook ran on the host")
		}
	})
}

// TestClaudeCwd: `cd` in one Bash call holds in the next. Claude reads
// the directory back from the file its wrapper names with `pwd -P >|` in
// CLAUDE_CODE_TMPDIR, the agent's private temp dir: the shim opens it
// there and the sandboxed wrapper writes to the descriptor (no directory
// is shared with the sandbox).
func TestClaudeCwd(t *testing.T) {
	t.Parallel()
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	e := newEnv(t, bin, "")
	e.write("sub/here.txt", "x")
	m, err := mockmodel.Start(mockmodel.Scenario{Command: "cd sub", Then: []string{"pwd; ls"}, Final: finalText})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	e.mock = m
	out, errs, code := runClaude(e)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	rs := m.ToolResults()
	if len(rs) != 2 || !strings.Contains(rs[1], e.ws+"/sub") || !strings.Contains(rs[1], "here.txt") {
		t.Fatalf("tool results %q: the second call did not run in sub/\nstderr:\n%s", rs, errs)
	}
}
