// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

func TestFromPolicyDefault(t *testing.T) {
	p := policy.Default()
	s, err := FromPolicy(p, "/home/user/project/", "/home/user", "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Workspace != "/home/user/project" || s.Cwd != "/home/user/project" || s.Home != "/home/user" {
		t.Errorf("workspace, cwd, home = %q, %q, %q", s.Workspace, s.Cwd, s.Home)
	}
	if s.Network != policy.NetworkOpen {
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

func TestFromPolicy(t *testing.T) {
	mk := func(f func(*policy.Policy)) *policy.Policy {
		p := policy.Default().Clone()
		f(p)
		return p
	}
	none := func(*policy.Policy) {}
	for _, c := range []struct {
		name                 string
		pol                  *policy.Policy
		workspace, home, cwd string
		wantErr              string
		check                func(t *testing.T, s Spec)
	}{
		{name: "relative workspace", pol: mk(none), workspace: "project", home: "/h", wantErr: "not an absolute path"},
		{name: "empty workspace", pol: mk(none), workspace: "", home: "/h", wantErr: "not an absolute path"},
		{name: "relative home", pol: mk(none), workspace: "/w", home: "h", wantErr: "home"},
		{name: "nil policy", workspace: "/w", wantErr: "nil policy"},
		{name: "relative cwd", pol: mk(none), workspace: "/w", home: "/h", cwd: "sub/dir", check: func(t *testing.T, s Spec) {
			if s.Cwd != "/w/sub/dir" {
				t.Errorf("cwd = %q", s.Cwd)
			}
		}},
		{name: "unclean cwd", pol: mk(none), workspace: "/w", home: "/h", cwd: "/w/a/../b/", check: func(t *testing.T, s Spec) {
			if s.Cwd != "/w/b" {
				t.Errorf("cwd = %q", s.Cwd)
			}
		}},
		{name: "network off", pol: mk(func(p *policy.Policy) { p.Sandbox.Network = "off" }), workspace: "/w", home: "/h", check: func(t *testing.T, s Spec) {
			if s.Network != policy.NetworkOff {
				t.Errorf("network = %q", s.Network)
			}
		}},
		{name: "unknown network", pol: mk(func(p *policy.Policy) { p.Sandbox.Network = "proxy" }), workspace: "/w", home: "/h", wantErr: "unknown network mode"},
		{name: "grants expanded", pol: mk(func(p *policy.Policy) {
			p.Sandbox.Read = []string{"~/.cargo/bin", "/nix/store/"}
			p.Sandbox.Write = []string{"~", "~/.cache/go-build"}
		}), workspace: "/w", home: "/h/", check: func(t *testing.T, s Spec) {
			if !slices.Equal(s.Read, []string{"/h/.cargo/bin", "/nix/store"}) || !slices.Equal(s.Write, []string{"/h", "/h/.cache/go-build"}) {
				t.Errorf("read %v write %v", s.Read, s.Write)
			}
		}},
		{name: "relative grant", pol: mk(func(p *policy.Policy) { p.Sandbox.Read = []string{"node_modules"} }), workspace: "/w", home: "/h", wantErr: "read: path \"node_modules\" is not absolute"},
		{name: "tilde user", pol: mk(func(p *policy.Policy) { p.Sandbox.Write = []string{"~root/.ssh"} }), workspace: "/w", home: "/h", wantErr: "only ~ and ~/"},
		{name: "tilde without home", pol: mk(none), workspace: "/w", home: "", wantErr: "home directory, which is unknown"},
		{name: "etc escape", pol: mk(func(p *policy.Policy) { p.Sandbox.Etc = []string{"ssl/../shadow"} }), workspace: "/w", home: "/h", wantErr: "not a clean name"},
		{name: "etc dotdot", pol: mk(func(p *policy.Policy) { p.Sandbox.Etc = []string{"../root"} }), workspace: "/w", home: "/h", wantErr: "leaves /etc"},
		{name: "etc absolute", pol: mk(func(p *policy.Policy) { p.Sandbox.Etc = []string{"/etc/shadow"} }), workspace: "/w", home: "/h", wantErr: "relative to /etc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := FromPolicy(c.pol, c.workspace, c.home, c.cwd)
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

func TestDegraded(t *testing.T) {
	for _, c := range []struct {
		ws, home string
		want     bool
		reason   string
	}{
		{"/", "/home/u", true, "workspace / makes the whole filesystem writable"},
		{"/", "", true, "workspace / makes the whole filesystem writable"},
		{"/home/u", "/home/u", true, "workspace /home/u is the home directory: everything in it becomes writable"},
		{"/home/u/", "/home/u", true, "is the home directory"},
		{"/home", "/home/u", true, "workspace /home contains the home directory /home/u: everything under it becomes writable"},
		{"/home/u/project", "/home/u", false, ""},
		{"/home/u2", "/home/u", false, ""},    // sibling
		{"/home/us", "/home/user", false, ""}, // prefix, not ancestor (escape class 2)
		{"/srv/ws", "", false, ""},
	} {
		got, reason := Degraded(c.ws, c.home)
		if got != c.want || !strings.Contains(reason, c.reason) || (!c.want && reason != "") {
			t.Errorf("Degraded(%q, %q) = %v, %q; want %v, %q", c.ws, c.home, got, reason, c.want, c.reason)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a", true},
		{"/a", "/a", true},
		{"/ab", "/a", false},
		{"/home/u/.sshfoo", "/home/u/.ssh", false}, // escape class 2
		{"/home/u/.ssh/id_rsa", "/home/u/.ssh", true},
		{"/x", "/", true},
		{"/", "/", true},
		{"/a", "/a/b", false},
	} {
		if got := within(c.p, c.dir); got != c.want {
			t.Errorf("within(%q, %q) = %v", c.p, c.dir, got)
		}
	}
}

func TestCheckCommand(t *testing.T) {
	base := Spec{
		Workspace: "/home/u/project",
		Read:      []string{"/nix/store"},
		Write:     []string{"/home/u/.cache"},
		Deny:      []string{"/home/u/project/.secrets"},
	}
	argv := []string{"/bin/sh", "-c", "true"}
	for _, c := range []struct {
		name, cwd string
		argv      []string
		op        string // "" means success
	}{
		{"workspace", "/home/u/project", argv, ""},
		{"default cwd", "", argv, ""},
		{"subdir", "/home/u/project/src", argv, ""},
		{"write grant", "/home/u/.cache/go", argv, ""},
		{"read grant", "/nix/store", argv, ""},
		{"home", "/home/u", argv, "cwd"},
		{"sibling prefix", "/home/u/project2", argv, "cwd"},
		{"root", "/", argv, "cwd"},
		{"relative", "src", argv, "cwd"},
		{"denied", "/home/u/project/.secrets/x", argv, "cwd"},
		{"no argv", "", nil, "argv"},
		{"empty program", "", []string{""}, "argv"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			s.Cwd = c.cwd
			err := checkCommand(s, c.argv)
			if c.op == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *SetupError
			if !errors.As(err, &se) || se.Op != c.op {
				t.Fatalf("err = %v, want a *SetupError with Op %q", err, c.op)
			}
		})
	}
}
