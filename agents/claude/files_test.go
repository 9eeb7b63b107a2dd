// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

type settingsView struct {
	DisableAllHooks *bool
	Permissions     struct{ Deny []string }
	Hooks           struct {
		PreToolUse []struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
}

func settingsOf(t *testing.T, s agents.Session) settingsView {
	t.Helper()
	b, err := Settings(s)
	if err != nil {
		t.Fatal(err)
	}
	var v settingsView
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSettingsFileRules: the deny rules are always there; the hook and
// hooks on only in the ring, with disableAllHooks false explicitly (F3).
func TestSettingsFileRules(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "2.1.197 (Claude Code)")
	s.Home = "/h"
	s.Deny = []string{"/h/.ssh", "/h/.netrc"}
	s.Protect = []string{"/ws/.git/hooks", "/ws/.claude"}
	v := settingsOf(t, s)
	for _, r := range []string{"Read(//h/.ssh)", "Read(//h/.ssh/**)", "Read(//h/.netrc)", "Edit(//ws/.git/hooks/**)", "Edit(//ws/.claude/**)", "Edit(//h/.bashrc)", "Edit(//h/.claude/settings.json)"} {
		if !slices.Contains(v.Permissions.Deny, r) {
			t.Errorf("deny rules lack %s: %q", r, v.Permissions.Deny)
		}
	}
	if v.DisableAllHooks == nil || !*v.DisableAllHooks || len(v.Hooks.PreToolUse) != 0 {
		t.Errorf("outside the ring hooks must stay off: %+v", v)
	}
	s.Ring = true
	v = settingsOf(t, s)
	if v.DisableAllHooks == nil || *v.DisableAllHooks {
		t.Errorf("in the ring disableAllHooks must be false explicitly: %+v", v)
	}
	if len(v.Hooks.PreToolUse) != 1 || v.Hooks.PreToolUse[0].Matcher != fileTools ||
		v.Hooks.PreToolUse[0].Hooks[0].Command != "[ -x '/usr/local/bin/lite-sandbox' ] && '/usr/local/bin/lite-sandbox' hook claude || exit 2" {
		t.Errorf("hook %+v", v.Hooks)
	}
}

func TestHookFiles(t *testing.T) {
	t.Parallel()
	var seen []string
	judge := func(a agents.FileAccess, p, cwd string) agents.Verdict {
		seen = append(seen, string(rune('0'+a))+":"+p)
		if strings.Contains(p, "secret") {
			return agents.Verdict{Message: "lite-sandbox: REFUSED " + p}
		}
		return agents.Verdict{Allowed: true}
	}
	for _, tc := range []struct {
		tool  string
		input map[string]any
		deny  string
		calls []string
	}{
		{"Read", map[string]any{"file_path": "a.go"}, "", []string{"0:a.go"}},
		{"Read", map[string]any{"file_path": "~/secret"}, "REFUSED ~/secret", nil},
		{"Read", map[string]any{}, "without file_path", nil},
		{"Write", map[string]any{"file_path": "secret.txt", "content": "x"}, "REFUSED", []string{"2:secret.txt"}},
		{"Edit", map[string]any{"file_path": "b.go"}, "", []string{"2:b.go"}},
		{"MultiEdit", map[string]any{"file_path": "c.go"}, "", []string{"2:c.go"}},
		{"NotebookEdit", map[string]any{"notebook_path": "n.ipynb"}, "", []string{"2:n.ipynb"}},
		{"NotebookEdit", map[string]any{"file_path": "n.ipynb"}, "without notebook_path", nil},
		{"Grep", map[string]any{"pattern": "x"}, "", []string{"1:/ws"}},
		{"Grep", map[string]any{"pattern": "x", "path": "/secret"}, "REFUSED", nil},
		{"Glob", map[string]any{"pattern": "/home/u/*/k"}, "", []string{"1:/ws", "1:/home/u/"}},
		{"Glob", map[string]any{"pattern": "/secret/**", "path": "src"}, "REFUSED /secret/", nil},
		{"Bash", map[string]any{"command": "cat /secret"}, "", []string{}},
	} {
		seen = nil
		b, _ := json.Marshal(map[string]any{"tool_name": tc.tool, "cwd": "/ws", "tool_input": tc.input})
		out, code := New().HookFiles(b, nil, judge, "")
		if code != 0 {
			t.Errorf("%s: exit %d", tc.tool, code)
		}
		if tc.deny == "" {
			if len(out) != 0 {
				t.Errorf("%s %v: output %s, want none", tc.tool, tc.input, out)
			}
		} else if !strings.Contains(string(out), `"permissionDecision":"deny"`) || !strings.Contains(string(out), tc.deny) {
			t.Errorf("%s %v: %s, want a denial with %q", tc.tool, tc.input, out, tc.deny)
		}
		if tc.calls != nil && !slices.Equal(seen, tc.calls) && !(len(tc.calls) == 0 && len(seen) == 0) {
			t.Errorf("%s %v: judged %q, want %q", tc.tool, tc.input, seen, tc.calls)
		}
	}
	if out, _ := New().HookFiles([]byte("nope"), nil, judge, ""); !strings.Contains(string(out), "deny") {
		t.Errorf("bad JSON: %s", out)
	}
}

func TestOwnWrites(t *testing.T) {
	t.Parallel()
	if got := New().OwnWrites("/h"); !slices.Equal(got, []string{"/h/.claude/plans"}) {
		t.Fatalf("OwnWrites = %q", got)
	}
}
