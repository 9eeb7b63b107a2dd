// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"slices"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestRingSpec: the ring gets the adapter's state and guards, the user's
// agent.write (with ~ expanded), the agent's temp dir, a private /tmp
// below the session, the session read-only and the other sessions
// hidden.
func TestRingSpec(t *testing.T) {
	p := policy.Default().Clone()
	p.Agent.Write = []string{"~/.local/share/mcp"}
	info := agents.Session{Dir: "/run/u/lite-sandbox/s-1", Exe: "/usr/bin/lite-sandbox", Workspace: "/home/u/p", Home: "/home/u",
		TmpDir: "/tmp/lite-sandbox-agent-1", Getenv: func(string) string { return "" }}
	in := NewInput(claude.New(), info, p, specOf(t, p, info), "/opt/claude/bin/claude", nil)
	in.DryRun = true
	r, err := ringSpec(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"/home/u/.claude/projects", "/home/u/.claude.json", "/home/u/.local/share/mcp", "/tmp/lite-sandbox-agent-1"} {
		if !slices.Contains(r.Write, w) {
			t.Errorf("Write lacks %s: %v", w, r.Write)
		}
	}
	// The configuration directory is a read-only layer, not writable.
	if slices.Contains(r.Write, "/home/u/.claude") || len(r.Layers) != 1 || r.Layers[0].Dir != "/home/u/.claude" || r.Layers[0].Scratch != info.Dir+"/state/0" {
		t.Errorf("layers %v, write %v", r.Layers, r.Write)
	}
	// The git identity is the sanitized copy made at start (#31), never
	// the user's files with their credentials.
	if slices.Contains(r.Read, "/home/u/.gitconfig") || !slices.Contains(r.Hide, "/home/u/.config/git/config") || !slices.Contains(r.Read, "/home/u/.config/git") {
		t.Errorf("the git files themselves are readable: read %v, hide %v", r.Read, r.Hide)
	}
	if !slices.Contains(r.Guard, sandbox.Protected{Path: "/home/u/.claude/hooks", Dir: true}) {
		t.Errorf("Guard = %v", r.Guard)
	}
	if r.Tmp != "/run/u/lite-sandbox/s-1/tmp" || r.Session != info.Dir || !slices.Equal(r.Hide, []string{"/run/u/lite-sandbox", "/home/u/.config/git/config"}) {
		t.Errorf("tmp %s, session %s, hide %v", r.Tmp, r.Session, r.Hide)
	}
	if r.Command.Workspace != "/home/u/p" || len(r.Command.Protect) == 0 || len(r.Command.Deny) == 0 {
		t.Errorf("the command sandbox's spec is missing: %+v", r.Command)
	}
	if !slices.Contains(r.Read, "/usr/bin/lite-sandbox") || r.Exe != "/usr/bin/lite-sandbox" {
		t.Errorf("exe: %v %s", r.Read, r.Exe)
	}
	p.Agent.Write = []string{"relative"}
	in = NewInput(claude.New(), info, p, specOf(t, p, info), "", nil)
	in.DryRun = true
	if _, err := ringSpec(in); err == nil {
		t.Error("a relative agent.write was accepted")
	}
}

// specOf is the session's command spec, as the launch builds it once.
func specOf(t *testing.T, p *policy.Policy, info agents.Session) sandbox.Spec {
	t.Helper()
	spec, err := p.SandboxSpec(info.Workspace, info.Home, "")
	if err != nil {
		t.Fatal(err)
	}
	return spec
}
