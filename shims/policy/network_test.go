// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"slices"
	"strings"
	"testing"
)

func TestNetworkLayers(t *testing.T) {
	t.Parallel()
	d := Default()
	if d.Sandbox.Network != NetworkOpen || !slices.Contains(d.Sandbox.AllowDomains, "proxy.golang.org") ||
		!slices.Contains(d.Sandbox.AllowDomains, "github.com") || len(d.Sandbox.AllowAddresses) != 0 {
		t.Errorf("default: network %q, allow_domains %v, allow_addresses %v", d.Sandbox.Network, d.Sandbox.AllowDomains, d.Sandbox.AllowAddresses)
	}
	for _, tc := range []struct {
		name          string
		user, project string
		want          string // error substring, "" for none
	}{
		{"user allow", "[sandbox]\nnetwork = \"allow\"\nallow_domains = [\"Example.COM.\", \"*.corp.example\"]\nallow_addresses = [\"127.0.0.1:3000\", \"10.0.0.0/8\"]\n", "", ""},
		{"project open to allow", "", "[sandbox]\nnetwork = \"allow\"\ndeny_domains = [\"github.com\"]\n", ""},
		{"project allow to off", "[sandbox]\nnetwork = \"allow\"\n", "[sandbox]\nnetwork = \"off\"\n", ""},
		{"project allow to open", "[sandbox]\nnetwork = \"allow\"\n", "[sandbox]\nnetwork = \"open\"\n", "sandbox.network: a project file may only tighten"},
		{"user host", "[sandbox]\nnetwork = \"host\"\n", "", ""},
		{"project host to open", "[sandbox]\nnetwork = \"host\"\n", "[sandbox]\nnetwork = \"open\"\n", ""},
		{"project open to host", "", "[sandbox]\nnetwork = \"host\"\n", "sandbox.network: a project file may only tighten"},
		{"project off to allow", "[sandbox]\nnetwork = \"off\"\n", "[sandbox]\nnetwork = \"allow\"\n", "sandbox.network: a project file may only tighten"},
		{"project adds a name", "", "[sandbox]\nallow_domains = [\"evil.example\"]\n", "sandbox.allow_domains: a project file may only tighten"},
		{"project adds an address", "", "[sandbox]\nallow_addresses = [\"169.254.169.254\"]\n", "sandbox.allow_addresses: a project file may only tighten"},
		{"bad pattern", "[sandbox]\nallow_domains = [\"**\"]\n", "", "is not a domain name"},
		{"user any public", "[sandbox]\nallow_domains = [\"*\"]\n", "", ""},
		{"user ports and upstream", "[sandbox]\nallow_ports = [8443, 22]\nupstream_proxy = \"http://proxy.corp.test:8080\"\n", "", ""},
		{"project adds a port", "", "[sandbox]\nallow_ports = [22]\n", "sandbox.allow_ports: a project file may only tighten"},
		{"project names an upstream", "", "[sandbox]\nupstream_proxy = \"http://evil.test:3128\"\n", "sandbox.upstream_proxy: a project file may only tighten"},
		{"project removes the upstream", "", "[sandbox]\nupstream_proxy = \"none\"\n", "sandbox.upstream_proxy: a project file may only tighten"},
		{"bad port", "[sandbox]\nallow_ports = [0]\n", "", "is not a TCP port"},
		{"bad upstream", "[sandbox]\nupstream_proxy = \"socks5://p:1\"\n", "", "want http://"},
		{"bad address", "[sandbox]\nallow_addresses = [\"localhost\"]\n", "", "is not an IP address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := Options{Workspace: dir, Getenv: noenv, UserFile: write(t, dir, "user.toml", tc.user)}
			if tc.project != "" {
				write(t, dir, projectFile, tc.project)
			}
			p, err := Load(o)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "user allow" && (!slices.Contains(p.Sandbox.AllowDomains, "example.com") || len(p.Sandbox.AllowAddresses) != 2) {
				t.Errorf("user lists not merged: %v %v", p.Sandbox.AllowDomains, p.Sandbox.AllowAddresses)
			}
			if tc.name == "user ports and upstream" {
				px, err := p.EgressProxy(noenv)
				if err != nil || p.Sandbox.UpstreamProxy != "http://proxy.corp.test:8080" || px.Upstream == nil ||
					!slices.Equal(p.Sandbox.AllowPorts, []int{8443, 22}) {
					t.Errorf("ports %v, upstream %q (%v, %v)", p.Sandbox.AllowPorts, p.Sandbox.UpstreamProxy, px, err)
				}
			}
			if tc.name == "project open to allow" && !slices.Contains(p.Sandbox.DenyDomains, "github.com") {
				t.Errorf("deny_domains not merged: %v", p.Sandbox.DenyDomains)
			}
		})
	}
}

// TestEgressProxyUpstream: unset, the upstream is the host's own
// HTTPS_PROXY; "none" ignores it; a URL replaces it.
func TestEgressProxyUpstream(t *testing.T) {
	env := func(k string) string {
		if k == "HTTPS_PROXY" {
			return "http://host-proxy.test:8080"
		}
		return ""
	}
	for _, tc := range []struct{ set, want string }{
		{"", "http://host-proxy.test:8080"},
		{UpstreamNone, ""},
		{"http://u:p@mine.test:3128", "http://mine.test:3128"},
	} {
		p := Default()
		p.Sandbox.UpstreamProxy = tc.set
		px, err := p.EgressProxy(env)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if px.Upstream != nil {
			got = px.Upstream.String()
		}
		if got != tc.want {
			t.Errorf("upstream_proxy %q: %q, want %q", tc.set, got, tc.want)
		}
	}
}

// TestMarshalLeavesOutUpstreamPassword: the printed (and frozen) policy
// names the upstream proxy and its user but not its password (#27); the
// policy in memory keeps it (the launcher's proxy chains with it).
func TestMarshalLeavesOutUpstreamPassword(t *testing.T) {
	t.Parallel()
	p := Default()
	p.Sandbox.UpstreamProxy = "http://alice:s3cret-27@proxy.corp.test:8080"
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cret-27") || !strings.Contains(string(b), "alice@proxy.corp.test:8080") {
		t.Errorf("printed upstream_proxy: want alice@proxy.corp.test:8080 without the password:\n%s", grepLine(string(b), "upstream_proxy"))
	}
	if !strings.Contains(p.Sandbox.UpstreamProxy, "s3cret-27") {
		t.Error("Marshal changed the policy in memory")
	}
}

func grepLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
