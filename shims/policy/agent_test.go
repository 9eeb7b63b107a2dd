// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"slices"
	"strings"
	"testing"
)

func TestAgentWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noenv := func(string) string { return "" }
	user := write(t, dir, "user.toml", "[agent]\nwrite = [\"~/.local/share/mcp-memory\"]\n")
	p, err := Load(Options{UserFile: user, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Agent.Write, []string{"~/.local/share/mcp-memory"}) {
		t.Errorf("agent.write = %v", p.Agent.Write)
	}
	// It survives freezing.
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFrozen("frozen", b)
	if err != nil || !slices.Equal(f.Agent.Write, p.Agent.Write) {
		t.Errorf("frozen agent.write = %v, %v", f.Agent.Write, err)
	}

	ws := t.TempDir()
	write(t, ws, projectFile, "[agent]\nwrite = [\"~/.bashrc\"]\n")
	if _, err := Load(Options{UserFile: user, Workspace: ws, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), "agent.write: a project file may only tighten") {
		t.Errorf("project agent.write: err = %v", err)
	}
	bad := write(t, dir, "bad.toml", "[agent]\nwrite = [\"relative\"]\n")
	if _, err := Load(Options{UserFile: bad, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), "agent.write") {
		t.Errorf("relative agent.write: err = %v", err)
	}
}

// TestAgentReadEnv: agent.read and agent.env are the user's alone, and
// AgentEnv drops secrets and host IPC but what the agent logs in with or
// the user keeps.
func TestAgentReadEnv(t *testing.T) {
	dir := t.TempDir()
	user := write(t, dir, "user.toml", "[agent]\nread = [\"~/.config/mytool\"]\nenv = [\"SSH_AUTH_SOCK\"]\n")
	p, err := Load(Options{UserFile: user, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Agent.Read, []string{"~/.config/mytool"}) || !slices.Equal(p.Agent.Env, []string{"SSH_AUTH_SOCK"}) {
		t.Errorf("agent.read = %v, agent.env = %v", p.Agent.Read, p.Agent.Env)
	}
	env := []string{"PATH=/bin", "GITHUB_TOKEN=g", "ANTHROPIC_API_KEY=a", "SSH_AUTH_SOCK=/s", "TMUX=/t,1,0", "DISPLAY=:0", "HOME=/h"}
	got := p.AgentEnv(env, []string{"ANTHROPIC_*"})
	want := []string{"PATH=/bin", "ANTHROPIC_API_KEY=a", "SSH_AUTH_SOCK=/s", "HOME=/h"}
	if !slices.Equal(got, want) {
		t.Errorf("AgentEnv = %v, want %v", got, want)
	}
	// The default keeps nothing of the kind (control: the same input).
	if got := Default().AgentEnv(env, nil); !slices.Equal(got, []string{"PATH=/bin", "HOME=/h"}) {
		t.Errorf("default AgentEnv = %v", got)
	}
	for _, key := range []string{"read = [\"~/.aws\"]", "env = [\"AWS_*\"]"} {
		ws := t.TempDir()
		write(t, ws, projectFile, "[agent]\n"+key+"\n")
		if _, err := Load(Options{UserFile: user, Workspace: ws, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), "a project file may only tighten") {
			t.Errorf("project %s: err = %v", key, err)
		}
	}
}
