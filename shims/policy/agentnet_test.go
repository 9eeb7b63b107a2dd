// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"slices"
	"strings"
	"testing"
)

// TestAgentNet: agent.allow_domains and agent.host_ports are the user's
// alone (a repository must not open the host's database port or a host
// of its choosing to the agent), checked, kept apart from the
// commands' sandbox.allow_domains, and survive freezing (#27).
func TestAgentNet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noenv := func(string) string { return "" }
	user := write(t, dir, "user.toml", "[agent]\nallow_domains = [\"Mcp.Example.com\", \"*.corp.example\"]\nhost_ports = [11434, 11434, 4000]\n")
	p, err := Load(Options{UserFile: user, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Agent.AllowDomains, []string{"mcp.example.com", "*.corp.example"}) || !slices.Equal(p.Agent.HostPorts, []int{11434, 4000}) {
		t.Errorf("agent.allow_domains = %v, agent.host_ports = %v", p.Agent.AllowDomains, p.Agent.HostPorts)
	}
	if slices.Contains(p.Sandbox.AllowDomains, "mcp.example.com") {
		t.Errorf("the agent's list widened the commands': %v", p.Sandbox.AllowDomains)
	}
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFrozen("frozen", b)
	if err != nil || !slices.Equal(f.Agent.AllowDomains, p.Agent.AllowDomains) || !slices.Equal(f.Agent.HostPorts, p.Agent.HostPorts) {
		t.Errorf("frozen: %v %v, %v", f.Agent.AllowDomains, f.Agent.HostPorts, err)
	}
	c := p.Clone()
	c.Agent.HostPorts[0] = 1
	if p.Agent.HostPorts[0] != 11434 {
		t.Error("Clone shares agent.host_ports")
	}

	for _, tc := range []struct{ project, want string }{
		{"[agent]\nallow_domains = [\"evil.example\"]\n", "agent.allow_domains: a project file may only tighten"},
		{"[agent]\nhost_ports = [5432]\n", "agent.host_ports: a project file may only tighten"},
	} {
		ws := t.TempDir()
		write(t, ws, projectFile, tc.project)
		if _, err := Load(Options{UserFile: user, Workspace: ws, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("project %q: err = %v, want %q", tc.project, err, tc.want)
		}
	}
	for _, tc := range []struct{ user, want string }{
		{"[agent]\nhost_ports = [3128]\n", "the ring's own proxy port"},
		{"[agent]\nhost_ports = [0]\n", "not a TCP port"},
		{"[agent]\nallow_domains = [\"bad name\"]\n", "agent.allow_domains"},
	} {
		f := write(t, t.TempDir(), "u.toml", tc.user)
		if _, err := Load(Options{UserFile: f, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.user, err, tc.want)
		}
	}
}

// TestSandboxHostPorts: sandbox.host_ports (commands under open) is the
// user's alone, checked, merged without repeats, and survives freezing
// and Clone (#27).
func TestSandboxHostPorts(t *testing.T) {
	t.Parallel()
	noenv := func(string) string { return "" }
	user := write(t, t.TempDir(), "user.toml", "[sandbox]\nhost_ports = [4873, 4873, 5432]\n")
	p, err := Load(Options{UserFile: user, Getenv: noenv})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Sandbox.HostPorts, []int{4873, 5432}) || len(p.Agent.HostPorts) != 0 {
		t.Errorf("sandbox.host_ports = %v, agent.host_ports = %v", p.Sandbox.HostPorts, p.Agent.HostPorts)
	}
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if f, err := LoadFrozen("frozen", b); err != nil || !slices.Equal(f.Sandbox.HostPorts, p.Sandbox.HostPorts) {
		t.Errorf("frozen: %v, %v", f.Sandbox.HostPorts, err)
	}
	c := p.Clone()
	c.Sandbox.HostPorts[0] = 1
	if p.Sandbox.HostPorts[0] != 4873 {
		t.Error("Clone shares sandbox.host_ports")
	}
	ws := t.TempDir()
	write(t, ws, projectFile, "[sandbox]\nhost_ports = [6379]\n")
	if _, err := Load(Options{UserFile: user, Workspace: ws, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), "sandbox.host_ports") {
		t.Errorf("a project file's sandbox.host_ports: err = %v", err)
	}
	for _, tc := range []struct{ user, want string }{
		{"[sandbox]\nhost_ports = [3128]\n", "the sandbox's own proxy port"},
		{"[sandbox]\nhost_ports = [70000]\n", "sandbox.host_ports"},
	} {
		f := write(t, t.TempDir(), "u.toml", tc.user)
		if _, err := Load(Options{UserFile: f, Getenv: noenv}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.user, err, tc.want)
		}
	}
}
