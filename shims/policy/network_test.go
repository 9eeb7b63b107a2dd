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
		{"project off to allow", "[sandbox]\nnetwork = \"off\"\n", "[sandbox]\nnetwork = \"allow\"\n", "sandbox.network: a project file may only tighten"},
		{"project adds a name", "", "[sandbox]\nallow_domains = [\"evil.example\"]\n", "sandbox.allow_domains: a project file may only tighten"},
		{"project adds an address", "", "[sandbox]\nallow_addresses = [\"169.254.169.254\"]\n", "sandbox.allow_addresses: a project file may only tighten"},
		{"bad pattern", "[sandbox]\nallow_domains = [\"*\"]\n", "", "is not a domain name"},
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
			if tc.name == "project open to allow" && !slices.Contains(p.Sandbox.DenyDomains, "github.com") {
				t.Errorf("deny_domains not merged: %v", p.Sandbox.DenyDomains)
			}
		})
	}
}
