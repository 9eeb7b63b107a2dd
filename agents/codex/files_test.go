// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

func TestPatchPaths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		patch string
		want  []string
		err   bool
	}{
		{"*** Begin Patch\n*** Add File: a.txt\n+*** not a header\n*** Update File: b/c.go\n*** Move to: ~/.bashrc\n@@\n *** context\n-x\n+y\n*** End of File\n*** Delete File: /etc/x\n*** End Patch\n", []string{"a.txt", "b/c.go", "~/.bashrc", "/etc/x"}, false},
		{"\n  *** Begin Patch\r\n  *** Add File: x\r\n*** End Patch", []string{"x"}, false},
		{"*** Begin Patch\n*** Frobnicate File: x\n*** End Patch", nil, true},
		{"*** Begin Patch\n*** Add File: \n*** End Patch", nil, true},
		{"*** Add File: x\n+y\n", nil, true},
		{"*** Begin Patch\n*** Add File: x\n", nil, true},
		{"", nil, true},
	} {
		got, err := patchPaths(tc.patch)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("patchPaths(%q) = %q, %v; want %q, err %v", tc.patch, got, err, tc.want, tc.err)
		}
	}
}

// TestHookFiles: apply_patch paths and view_image's path go to the
// judge with the hook's cwd; a refusal denies with the judge's reason;
// an allowed call gets no output (no opinion); shell calls are still
// rewritten.
func TestHookFiles(t *testing.T) {
	t.Parallel()
	var seen []string
	judge := func(a agents.FileAccess, p, cwd string) agents.Verdict {
		seen = append(seen, string(rune('0'+a))+":"+p+"@"+cwd)
		if strings.Contains(p, "bashrc") || strings.Contains(p, ".ssh") {
			return agents.Verdict{Message: "lite-sandbox: REFUSED " + p}
		}
		return agents.Verdict{Allowed: true}
	}
	allow := func(string) agents.Verdict { return agents.Verdict{Allowed: true} }
	in := func(tool string, input map[string]any) []byte {
		b, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool, "cwd": "/ws", "tool_input": input})
		return b
	}
	patch := func(body string) map[string]any {
		return map[string]any{"command": "*** Begin Patch\n" + body + "*** End Patch\n"}
	}
	for _, tc := range []struct {
		name, tool string
		input      map[string]any
		deny       string // substring of the reason; "" = no output
		rewrite    bool
	}{
		{"patch in ws", "apply_patch", patch("*** Add File: new.go\n+x\n*** Update File: main.go\n@@\n-a\n+b\n"), "", false},
		{"patch moves out", "apply_patch", patch("*** Update File: main.go\n*** Move to: ../home/.bashrc\n"), "REFUSED ../home/.bashrc; the patch was not applied", false},
		{"patch unparsable", "apply_patch", map[string]any{"command": "rm -rf /"}, "could not be read", false},
		{"patch missing", "apply_patch", map[string]any{}, "without a patch", false},
		{"image ok", "view_image", map[string]any{"path": "shot.png"}, "", false},
		{"image secret", "view_image", map[string]any{"path": "/h/.ssh/id.png"}, "REFUSED /h/.ssh/id.png", false},
		{"image no path", "view_image", map[string]any{}, "without a path", false},
		{"shell python", "Bash", map[string]any{"command": "print(1)", "shell": "/usr/bin/python3"}, "is not a shell", false},
		{"shell sh", "Bash", map[string]any{"command": "id", "shell": "/bin/sh"}, "", true},
		{"shell plain", "Bash", map[string]any{"command": "id"}, "", true},
	} {
		out, code := New().HookFiles(in(tc.tool, tc.input), allow, judge, "/s/bin/bash")
		if code != 0 {
			t.Errorf("%s: exit %d", tc.name, code)
		}
		var o hookOutput
		if len(out) > 0 {
			if err := json.Unmarshal(out, &o); err != nil {
				t.Fatalf("%s: %q: %v", tc.name, out, err)
			}
		}
		switch {
		case tc.deny != "":
			if o.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(o.HookSpecificOutput.PermissionDecisionReason, tc.deny) {
				t.Errorf("%s: %s, want a denial with %q", tc.name, out, tc.deny)
			}
		case tc.rewrite:
			if o.HookSpecificOutput.PermissionDecision != "allow" || o.HookSpecificOutput.UpdatedInput == nil {
				t.Errorf("%s: %s, want a rewrite", tc.name, out)
			}
		case len(out) != 0:
			t.Errorf("%s: output %s, want none", tc.name, out)
		}
	}
	if !slices.Contains(seen, "2:../home/.bashrc@/ws") || !slices.Contains(seen, "0:shot.png@/ws") {
		t.Errorf("judge calls %q", seen)
	}
	if out, _ := New().HookFiles([]byte("{"), allow, judge, "/s"); !strings.Contains(string(out), `"deny"`) {
		t.Errorf("bad JSON: %s", out)
	}
}
