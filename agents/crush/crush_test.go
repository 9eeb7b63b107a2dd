// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package crush

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/agentstest"
)

func TestPrepare(t *testing.T) {
	t.Parallel()
	s := agentstest.Session(t, "crush version v0.90.0", "run", "--quiet", "hi")
	s.Workspace = t.TempDir() // a repository of its own: no project files
	os.Mkdir(filepath.Join(s.Workspace, ".git"), 0o755)
	p, err := New().Prepare(s)
	if err != nil {
		t.Fatal(err)
	}
	agentstest.Golden(t, "plan", p)
}

// TestProjectFiles: the files that run code at start are found in the
// workspace and its parents up to the git root, not above (A4).
func TestProjectFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws := filepath.Join(root, "repo", "sub")
	os.MkdirAll(ws, 0o755)
	os.Mkdir(filepath.Join(root, "repo", ".git"), 0o755)
	for _, f := range []string{"repo/sub/.crushrc", "repo/crush.json", "crush.json"} {
		os.WriteFile(filepath.Join(root, f), []byte(`{"hooks":{}}`), 0o644)
	}
	// Empty files and empty objects (the sandbox's placeholders) configure
	// nothing and are not reported.
	os.WriteFile(filepath.Join(root, "repo/sub/crush.json"), []byte("{}\n"), 0o444)
	os.WriteFile(filepath.Join(root, "repo/sub/crushrc"), nil, 0o444)
	got := ProjectFiles(ws)
	var rel []string
	for _, f := range got {
		if r, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(r, "..") {
			rel = append(rel, r)
		}
	}
	if strings.Join(rel, " ") != "repo/sub/.crushrc repo/crush.json" {
		t.Fatalf("found %q", rel)
	}
	s := agentstest.Session(t, "v0.90.0")
	s.Workspace = ws
	p, _ := New().Prepare(s)
	if len(p.Warnings) < 2 || !strings.Contains(p.Warnings[0], ".crushrc") {
		t.Fatalf("warnings %q", p.Warnings)
	}
}

// TestHook is the hook's contract (docs/agents.md §5.4): exit 0 with
// updated_input routes the call; exit 2 blocks it; every other outcome
// would run the original command, so errors exit 2 too.
func TestHook(t *testing.T) {
	t.Parallel()
	const shim = "/run/s-1/bin/bash"
	for _, tc := range []struct {
		name, in  string
		code      int
		decision  string
		command   string
		reasonHas string
	}{
		{"allowed", `{"event":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"bash","tool_input":{"command":"echo it's","working_dir":"/w","description":"d"}}`,
			0, "allow", `'/run/s-1/bin/bash' -c 'echo it'\''s'`, ""},
		{"denied", `{"tool_name":"bash","tool_input":{"command":"git push --force origin main"}}`, 2, "deny", "", "git.push.force"},
		{"other tool", `{"tool_name":"write","tool_input":{"path":"x"}}`, 2, "deny", "", "only handles the bash tool"},
		{"no command", `{"tool_name":"bash","tool_input":{}}`, 2, "deny", "", "without a command"},
		{"bad json", `nope`, 2, "deny", "", "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, code := New().Hook([]byte(tc.in), agentstest.Check, shim)
			var o struct {
				Decision     string
				Reason       string
				UpdatedInput map[string]any `json:"updated_input"`
			}
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			if code != tc.code || o.Decision != tc.decision || !strings.Contains(o.Reason, tc.reasonHas) {
				t.Fatalf("exit %d, output %s", code, b)
			}
			if tc.command != "" && (o.UpdatedInput["command"] != tc.command || len(o.UpdatedInput) != 1) {
				// Only command changes: updated_input merges shallowly, so
				// working_dir stays and the shim judges it (A7).
				t.Fatalf("updated_input %v", o.UpdatedInput)
			}
		})
	}
}

// TestHookCommandGuard: the guarded hook line blocks (exit 2) when the
// hook binary is missing, instead of failing in a way Crush ignores (A6).
func TestHookCommandGuard(t *testing.T) {
	t.Parallel()
	line := HookCommand(filepath.Join(t.TempDir(), "gone", "lite-sandbox"))
	err := exec.Command("/bin/sh", "-c", line).Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitBlock {
		t.Fatalf("%q: %v, want exit %d", line, err, exitBlock)
	}
	// A hook that fails (exit 1) also ends in exit 2.
	bin := filepath.Join(t.TempDir(), "hook")
	os.WriteFile(bin, []byte("#!/bin/sh\nexit 1\n"), 0o755)
	err = exec.Command("/bin/sh", "-c", HookCommand(bin)).Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBlock {
		t.Fatalf("failing hook: %v, want exit %d", err, exitBlock)
	}
}
