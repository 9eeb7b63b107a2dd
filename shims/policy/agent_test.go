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
