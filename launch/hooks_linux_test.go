// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
)

// hookCase is one hook call through the real shim and judge: the hook
// command the agent runs (`'<exe>' hook NAME`), its JSON input, and
// what the agent must read back.
type hookCase struct {
	name   string
	hook   string // NAME
	input  map[string]any
	status int
	stdout string // a part of the answer
	stderr string // a part of stderr
	marker string // a refused command's marker: its one audit record
}

// TestJudgeAnswersHooks (#29): the agents' own hooks (Codex's and
// Crush's routing, the file hooks) are answered by the session's judge
// in the launcher, through the shim the agent runs its hook with: no
// lite-sandbox process starts per tool call. The session records a
// binary that does not exist, so an answer that ran `<exe> hook NAME`
// would fail; each allowed call is the positive control of the refused
// one beside it. A command the hook refuses has exactly one audit
// record; an allowed one has none until it runs. Through the real shim
// (forward.Run), judge and bubblewrap.
func TestJudgeAnswersHooks(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("LITE_SANDBOX_NO_AUDIT", "")
	f := newFixture(t)
	outside := filepath.Join(filepath.Dir(f.ws), "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	// A link in the workspace out of it: the path judge follows links.
	if err := os.Symlink(outside, filepath.Join(f.ws, "out-link")); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(f.root, "no-such-dir", "lite-sandbox")
	s := f.openJudgedMeta(t, approval.New(approval.Options{Wait: time.Minute}),
		contract.Meta{Workspace: f.ws, Home: f.home, Mode: "on", Agent: "codex", Exe: exe})
	bash := func(tool, cmd string) map[string]any {
		return map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool, "cwd": f.ws, "tool_input": map[string]any{"command": cmd}}
	}
	patch := func(p string) map[string]any {
		return bash("apply_patch", "*** Begin Patch\n*** Add File: "+p+"\n+x\n*** End Patch\n")
	}
	shim := agents.ShellQuote(contract.Shim(s.Dir)) + " -c "
	for _, c := range []hookCase{
		{name: "codex allowed", hook: "codex", input: bash("Bash", "echo m-hook-ok"), stdout: `"permissionDecision":"allow"`},
		{name: "codex rewrite", hook: "codex", input: bash("Bash", "echo m-hook-ok2"), stdout: shim},
		{name: "codex denied", hook: "codex", input: bash("Bash", "rm -rf / # m-hook-deny"), stdout: "fs.rm.root", marker: "m-hook-deny"},
		{name: "crush allowed", hook: "crush", input: bash("bash", "echo m-hook-crush-ok"), stdout: `"decision":"allow"`},
		{name: "crush denied", hook: "crush", input: bash("bash", "rm -rf / # m-hook-crush"), status: 2, stdout: `"decision":"deny"`, marker: "m-hook-crush"},
		{name: "patch inside", hook: "codex", input: patch("new.txt")},
		{name: "patch outside", hook: "codex", input: patch(filepath.Join(outside, "x")), stdout: "outside the workspace"},
		{name: "patch through a link", hook: "codex", input: patch("out-link/x"), stdout: "which leads to " + outside},
		{name: "unknown hook", hook: "nosuch", input: bash("Bash", "true"), status: 2, stderr: "unknown agent"},
	} {
		in, _ := json.Marshal(c.input)
		status, stdout, stderr := f.shim(t, s, verdictCase{name: c.name,
			argv: []string{"sh", "-c", agents.ShellQuote(exe) + " hook " + c.hook}, stdin: string(in)})
		if status != c.status || !strings.Contains(stdout, c.stdout) || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want %d, %q, %q", c.name, status, stdout, stderr, c.status, c.stdout, c.stderr)
		}
		if c.stdout == "" && stdout != "" {
			t.Errorf("%s: stdout %q, want none (go on)", c.name, stdout)
		}
		cmd, _ := c.input["tool_input"].(map[string]any)["command"].(string)
		if i := strings.LastIndex(cmd, "m-hook"); i >= 0 {
			want := 0
			if c.marker != "" {
				want = 1
			}
			recs := recordsWith(t, state, cmd[i:])
			if len(recs) != want {
				t.Errorf("%s: %d audit records of %s, want %d: %v", c.name, len(recs), cmd[i:], want, recs)
			} else if want == 1 {
				checkVerdict(t, verdictCase{name: c.name, decision: "deny", rule: "fs.rm.root"}, recs[0])
			}
		}
	}
	if _, err := os.Stat(exe); !os.IsNotExist(err) {
		t.Fatalf("the session's recorded binary exists (%v): the test proves nothing", err)
	}
}
