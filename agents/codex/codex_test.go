// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestPrepare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"plan-tui", nil},
		{"plan-exec", []string{"exec", "--json", "fix the bug"}},
		{"plan-resume", []string{"resume", "--last"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New().Prepare(agentstest.Session(t, "codex-cli 0.171.0", tc.args...))
			if err != nil {
				t.Fatal(err)
			}
			agentstest.Golden(t, tc.name, p)
			// A2: never --trust, which would enable the project's hooks.
			if slices.Contains(p.Argv, "--trust") {
				t.Fatalf("argv has --trust: %q", p.Argv)
			}
		})
	}
	// Subcommands that take no hook are refused, not run unrouted.
	if _, err := New().Prepare(agentstest.Session(t, "codex-cli 0.171.0", "review")); err == nil || !strings.Contains(err.Error(), "codex review") {
		t.Fatalf("review: %v", err)
	}
}

type out struct {
	HookSpecificOutput struct {
		HookEventName            string
		PermissionDecision       string
		PermissionDecisionReason string
		UpdatedInput             map[string]string
	}
}

// TestHook is the hook's contract: input as Codex 0.171 sends it
// (docs/agents.md §4.3), output it applies.
func TestHook(t *testing.T) {
	t.Parallel()
	const shim = "/run/s-1/bin/bash"
	for _, tc := range []struct {
		name, in   string
		decision   string // "" means no output
		command    string
		reasonPart string
	}{
		{"allowed", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo it's > x"},"cwd":"/w"}`,
			"allow", `'/run/s-1/bin/bash' -c 'echo it'\''s > x'`, ""},
		{"denied", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}`,
			"deny", "", "blocked by git.push.force"},
		{"apply_patch untouched", `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}`,
			"", "", ""},
		{"no command", `{"tool_name":"Bash","tool_input":{}}`, "deny", "", "without a command"},
		{"bad json", `{"tool_name":`, "deny", "", "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, code := New().Hook([]byte(tc.in), agentstest.Check, shim)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if tc.decision == "" {
				if len(b) != 0 {
					t.Fatalf("output %s, want none", b)
				}
				return
			}
			var o out
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			h := o.HookSpecificOutput
			if h.HookEventName != "PreToolUse" || h.PermissionDecision != tc.decision ||
				h.UpdatedInput["command"] != tc.command || !strings.Contains(h.PermissionDecisionReason, tc.reasonPart) {
				t.Fatalf("output %s", b)
			}
		})
	}
}

// TestHookRewriteRoundTrip: the rewritten command, run by a POSIX shell
// as Codex's outer shell does, gives the shim exactly the model's command.
func TestHookRewriteRoundTrip(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{`echo "it's" 'a' $HOME`, "cat <<'EOF'\nx'y\nEOF", "echo `id` \\ '\\''"} {
		in, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]string{"command": cmd}})
		b, _ := New().Hook(in, agentstest.Check, "printf")
		var o out
		json.Unmarshal(b, &o)
		// With printf as the "shim": printf -c CMD prints... use %s.
		line := strings.Replace(o.HookSpecificOutput.UpdatedInput["command"], "'printf' -c ", "printf %s ", 1)
		got, err := exec.Command("/bin/sh", "-c", line).Output()
		if err != nil || string(got) != cmd {
			t.Errorf("round trip of %q: got %q, %v", cmd, got, err)
		}
	}
}
