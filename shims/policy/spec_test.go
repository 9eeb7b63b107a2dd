// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

func TestSandboxSpecDefault(t *testing.T) {
	t.Parallel()
	p := Default()
	s, err := p.SandboxSpec("/home/user/project/", "/home/user", "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Workspace != "/home/user/project" || s.Cwd != "/home/user/project" || s.Home != "/home/user" {
		t.Errorf("workspace, cwd, home = %q, %q, %q", s.Workspace, s.Cwd, s.Home)
	}
	if s.Network != NetworkOpen {
		t.Errorf("network = %q, want open", s.Network)
	}
	if !slices.Equal(s.System, p.Sandbox.System) || !slices.Equal(s.Etc, p.Sandbox.Etc) {
		t.Errorf("system/etc changed: %v %v", s.System, s.Etc)
	}
	if !slices.Contains(s.Deny, "/home/user/.ssh") || !slices.Contains(s.Deny, "/home/user/.config/gh") {
		t.Errorf("deny not expanded: %v", s.Deny)
	}
	for _, d := range s.Deny {
		if strings.Contains(d, "~") {
			t.Errorf("unexpanded deny path %q", d)
		}
	}
	if slices.Contains(s.Etc, "shadow") {
		t.Error("/etc/shadow allow-listed")
	}
}

func TestSandboxSpec(t *testing.T) {
	t.Parallel()
	mk := func(f func(*Policy)) *Policy {
		p := Default().Clone()
		f(p)
		return p
	}
	none := func(*Policy) {}
	for _, c := range []struct {
		name                 string
		pol                  *Policy
		workspace, home, cwd string
		wantErr              string
		check                func(t *testing.T, s sandbox.Spec)
	}{
		{name: "relative workspace", pol: mk(none), workspace: "project", home: "/h", wantErr: "not an absolute path"},
		{name: "empty workspace", pol: mk(none), workspace: "", home: "/h", wantErr: "not an absolute path"},
		{name: "relative home", pol: mk(none), workspace: "/w", home: "h", wantErr: "home"},
		{name: "nil policy", workspace: "/w", wantErr: "nil policy"},
		{name: "relative cwd", pol: mk(none), workspace: "/w", home: "/h", cwd: "sub/dir", check: func(t *testing.T, s sandbox.Spec) {
			if s.Cwd != "/w/sub/dir" {
				t.Errorf("cwd = %q", s.Cwd)
			}
		}},
		{name: "unclean cwd", pol: mk(none), workspace: "/w", home: "/h", cwd: "/w/a/../b/", check: func(t *testing.T, s sandbox.Spec) {
			if s.Cwd != "/w/b" {
				t.Errorf("cwd = %q", s.Cwd)
			}
		}},
		{name: "network off", pol: mk(func(p *Policy) { p.Sandbox.Network = "off" }), workspace: "/w", home: "/h", check: func(t *testing.T, s sandbox.Spec) {
			if s.Network != NetworkOff {
				t.Errorf("network = %q", s.Network)
			}
		}},
		{name: "unknown network", pol: mk(func(p *Policy) { p.Sandbox.Network = "proxy" }), workspace: "/w", home: "/h", wantErr: "unknown network mode"},
		{name: "grants expanded", pol: mk(func(p *Policy) {
			p.Sandbox.Read = []string{"~/.cargo/bin", "/nix/store/"}
			p.Sandbox.Write = []string{"~", "~/.cache/go-build"}
		}), workspace: "/w", home: "/h/", check: func(t *testing.T, s sandbox.Spec) {
			if !slices.Equal(s.Read, []string{"/h/.cargo/bin", "/nix/store"}) || !slices.Equal(s.Write, []string{"/h", "/h/.cache/go-build"}) {
				t.Errorf("read %v write %v", s.Read, s.Write)
			}
		}},
		{name: "relative grant", pol: mk(func(p *Policy) { p.Sandbox.Read = []string{"node_modules"} }), workspace: "/w", home: "/h", wantErr: "read: path \"node_modules\" is not absolute"},
		{name: "tilde user", pol: mk(func(p *Policy) { p.Sandbox.Write = []string{"~root/.ssh"} }), workspace: "/w", home: "/h", wantErr: "only ~ and ~/"},
		{name: "tilde without home", pol: mk(none), workspace: "/w", home: "", wantErr: "home directory, which is unknown"},
		{name: "etc escape", pol: mk(func(p *Policy) { p.Sandbox.Etc = []string{"ssl/../shadow"} }), workspace: "/w", home: "/h", wantErr: "not a clean name"},
		{name: "etc dotdot", pol: mk(func(p *Policy) { p.Sandbox.Etc = []string{"../root"} }), workspace: "/w", home: "/h", wantErr: "leaves /etc"},
		{name: "etc absolute", pol: mk(func(p *Policy) { p.Sandbox.Etc = []string{"/etc/shadow"} }), workspace: "/w", home: "/h", wantErr: "relative to /etc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.pol.SandboxSpec(c.workspace, c.home, c.cwd)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, s)
		})
	}
}
