// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestAgentNet: the agent's proxy rules come from its adapter's
// provider hosts and the user's agent.allow_domains and host ports,
// never from the commands' sandbox.allow_domains (#27).
func TestAgentNet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		env       map[string]string
		allow     []string
		ports     []int
		forwarded []int
		domains   []string
		addrs     []string
		line      string
	}{
		{name: "default", domains: []string{"api.anthropic.com", "console.anthropic.com", "claude.ai"}, line: "api.anthropic.com:443"},
		{name: "base-url-loopback", env: map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:9999/v1"},
			domains: []string{"127.0.0.1"}, ports: []int{9999}, addrs: []string{"127.0.0.1:9999"}, line: "to: 127.0.0.1:9999;"},
		{name: "base-url-public", env: map[string]string{"ANTHROPIC_BASE_URL": "https://gw.example.com"},
			domains: []string{"gw.example.com"}, line: "to: gw.example.com:443;"},
		{name: "grants", allow: []string{"mcp.example.com"}, forwarded: []int{11434},
			domains: []string{"api.anthropic.com", "mcp.example.com", "127.0.0.1", "localhost"},
			addrs:   []string{"127.0.0.1:11434", "[::1]:11434"}, line: "(agent.host_ports): 11434"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := policy.Default().Clone()
			p.Sandbox.AllowDomains = []string{"pypi.org"}
			p.Agent.AllowDomains = tc.allow
			p.Agent.HostPorts = tc.forwarded
			info := agents.Session{Dir: "/run/u/s-1", Home: "/home/u", Workspace: "/home/u/p",
				Getenv: func(k string) string { return tc.env[k] }}
			in := NewInput(claude.New(), info, p, specOf(t, p, info), "/opt/claude", nil)
			in.DryRun = true
			n := AgentNet(in)
			for _, d := range tc.domains {
				if !slices.Contains(n.Rules.AllowDomains, d) {
					t.Errorf("allow_domains %v lacks %s", n.Rules.AllowDomains, d)
				}
			}
			if slices.Contains(n.Rules.AllowDomains, "pypi.org") {
				t.Errorf("the commands' list widened the agent's: %v", n.Rules.AllowDomains)
			}
			if tc.env["ANTHROPIC_BASE_URL"] != "" && slices.Contains(n.Rules.AllowDomains, "api.anthropic.com") {
				t.Errorf("a base URL still allows the default hosts: %v", n.Rules.AllowDomains)
			}
			if !slices.Equal(n.Rules.AllowPorts, tc.ports) || !slices.Equal(n.Rules.AllowAddresses, tc.addrs) || !slices.Equal(n.Ports, tc.forwarded) {
				t.Errorf("ports %v, addresses %v, forwarded %v", n.Rules.AllowPorts, n.Rules.AllowAddresses, n.Ports)
			}
			if !strings.Contains(n.Line(), tc.line) {
				t.Errorf("dry-run line %q lacks %q", n.Line(), tc.line)
			}
			env := n.Env([]string{"HTTPS_PROXY=http://u:secret@corp:8080", "PATH=/bin"}, "/run/u/s-1/ring.sock")
			if strings.Contains(strings.Join(env, "\n"), "secret") || !slices.Contains(env, "HTTPS_PROXY=http://127.0.0.1:3128") ||
				!slices.Contains(env, "LITE_SANDBOX_EGRESS=/run/u/s-1/ring.sock") {
				t.Errorf("env %v", env)
			}
		})
	}
}

// TestProviderTarget: what a provider entry grants.
func TestProviderTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in       string
		host     string
		port     int
		explicit bool
	}{
		{"api.openai.com", "api.openai.com", 443, false},
		{"http://localhost:4000/v1", "localhost", 4000, true},
		{"https://[::1]:8443", "::1", 8443, true},
		{"http://Gateway.Example", "gateway.example", 80, true},
		{"ftp://x.example", "", 0, false},
		{"http://x.example:99999", "", 0, false},
		{"not a host", "", 0, false},
	} {
		h, p, e := providerTarget(tc.in)
		if h != tc.host || p != tc.port || e != tc.explicit {
			t.Errorf("providerTarget(%q) = %q %d %v, want %q %d %v", tc.in, h, p, e, tc.host, tc.port, tc.explicit)
		}
	}
}
