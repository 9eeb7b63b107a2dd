// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package crush

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// TestHookFilesContract: Crush's documented hook contract (exit 2
// blocks; exit 0 JSON with updated_input merged) for its file tools.
func TestHookFilesContract(t *testing.T) {
	t.Parallel()
	judge := func(a agents.FileAccess, p, cwd string) agents.Verdict {
		if strings.Contains(p, ".ssh") || (a == agents.FileWrite && strings.Contains(p, "bashrc")) {
			return agents.Verdict{Message: "lite-sandbox: REFUSED " + p}
		}
		return agents.Verdict{Allowed: true}
	}
	allow := func(string) agents.Verdict { return agents.Verdict{Allowed: true} }
	for _, tc := range []struct {
		tool  string
		input map[string]any
		code  int
		want  string
	}{
		{"view", map[string]any{"file_path": "/h/.ssh/id"}, exitBlock, "REFUSED /h/.ssh/id"},
		{"view", map[string]any{"file_path": "main.go"}, 0, `{"updated_input":{"file_path":"main.go"}}`},
		{"write", map[string]any{"file_path": "~/.bashrc", "content": "x"}, exitBlock, "REFUSED ~/.bashrc"},
		{"edit", map[string]any{"old_string": "a"}, exitBlock, "without file_path"},
		{"multiedit", map[string]any{"file_path": 3}, exitBlock, "not a string"},
		{"download", map[string]any{"file_path": "x.tar", "url": "https://e"}, 0, `"file_path":"x.tar"`},
		{"grep", map[string]any{"pattern": "k"}, 0, `{"updated_input":{}}`},
		{"glob", map[string]any{"pattern": "*", "path": "/h/.ssh"}, exitBlock, "REFUSED"},
		{"ls", map[string]any{"path": "/h"}, 0, `"path":"/h"`},
		{"bash", map[string]any{"command": "id"}, 0, `"decision":"allow"`},
		{"fetch", map[string]any{"url": "x"}, exitBlock, "only handles the bash tool"},
	} {
		b, _ := json.Marshal(map[string]any{"event": "PreToolUse", "tool_name": tc.tool, "cwd": "/ws", "tool_input": tc.input})
		out, code := New().HookFiles(b, allow, judge, "/s/bin/bash")
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s %v: exit %d %s, want exit %d with %q", tc.tool, tc.input, code, out, tc.code, tc.want)
		}
	}
	re := regexp.MustCompile(hookMatcher)
	for _, n := range []string{"bash", "view", "edit", "multiedit", "write", "download", "ls", "glob", "grep"} {
		if !re.MatchString(n) {
			t.Errorf("matcher misses %s", n)
		}
	}
	if re.MatchString("bashx") || re.MatchString("agent") {
		t.Error("matcher too broad")
	}
	cfg, err := Config("/x/lite-sandbox")
	if err != nil || !strings.Contains(string(cfg), `"disabled_tools": [`) || !strings.Contains(string(cfg), `"agentic_fetch"`) {
		t.Errorf("config %s, %v", cfg, err)
	}
}
