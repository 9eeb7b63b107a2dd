// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"path"
	"slices"
	"strings"
	"testing"
)

func TestFilterEnv(t *testing.T) {
	t.Parallel()
	s := Default().Sandbox
	env := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C",
		"ANTHROPIC_API_KEY=sk-ant", "OPENAI_API_KEY=sk-oa", "MOCK_API_KEY=m",
		"GITHUB_TOKEN=ghp", "AWS_SECRET_ACCESS_KEY=x", "MY_PASSWORD=p",
		"SSH_AUTH_SOCK=/run/agent", "DBUS_SESSION_BUS_ADDRESS=unix:x",
		"XDG_RUNTIME_DIR=/run/user/0", "RANDOM_VAR=1", "GOFLAGS=-mod=mod",
		"LITE_SANDBOX_SESSION=/run/x", "noequals", "=empty",
	}
	got := s.FilterEnv(env)
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C", "GOFLAGS=-mod=mod"}
	if !slices.Equal(got, want) {
		t.Errorf("FilterEnv = %q, want %q", got, want)
	}

	// A glob that allows a secret-looking name does not pass it; naming
	// it exactly does.
	s.Env = append(s.Env, "DEPLOY_*", "DEPLOY_TOKEN_FILE")
	got = s.FilterEnv([]string{"DEPLOY_TOKEN=t", "DEPLOY_HOST=h", "DEPLOY_TOKEN_FILE=f"})
	want = []string{"DEPLOY_HOST=h", "DEPLOY_TOKEN_FILE=f"}
	if !slices.Equal(got, want) {
		t.Errorf("FilterEnv = %q, want %q", got, want)
	}
}

// TestFilterEnvBuildVariables: the default pass-through list of build
// variables (issue 31, finding 2) reaches the sandbox, a secret among
// them does not, and credentials in a URL value are removed.
func TestFilterEnvBuildVariables(t *testing.T) {
	t.Parallel()
	s := Default().Sandbox
	for _, tc := range []struct{ in, want string }{
		{"CC=clang", "CC=clang"},
		{"CFLAGS=-O2 -DX=1", "CFLAGS=-O2 -DX=1"},
		{"MAKEFLAGS=-j4", "MAKEFLAGS=-j4"},
		{"PKG_CONFIG_PATH=/opt/lib/pkgconfig", "PKG_CONFIG_PATH=/opt/lib/pkgconfig"},
		{"CMAKE_GENERATOR=Ninja", "CMAKE_GENERATOR=Ninja"},
		{"GOPRIVATE=corp.example/*", "GOPRIVATE=corp.example/*"},
		{"GONOPROXY=none", "GONOPROXY=none"},
		{"CARGO_TARGET_DIR=/tmp/t", "CARGO_TARGET_DIR=/tmp/t"},
		{"npm_config_registry=https://npm.corp.example/", "npm_config_registry=https://npm.corp.example/"},
		{"PIP_INDEX_URL=https://me:CANARY@pypi.corp.example/simple", "PIP_INDEX_URL=https://pypi.corp.example/simple"},
		{"GOPROXY=https://me:CANARY@goproxy.corp,direct", "GOPROXY=https://goproxy.corp,direct"},
		{"GIT_AUTHOR_EMAIL=me@example.com", "GIT_AUTHOR_EMAIL=me@example.com"},
		{"CARGO_REGISTRY_TOKEN=CANARY", ""},
		{"CARGO_REGISTRIES_CORP_TOKEN=CANARY", ""},
		{"CARGO_REGISTRIES_CORP_CREDENTIAL_PROVIDER=x", ""},
		{"GITHUB_TOKEN=CANARY", ""},
		{"NPM_TOKEN=CANARY", ""},
	} {
		got := strings.Join(s.FilterEnv([]string{tc.in}), "")
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
	pass, stripped, secret := s.EnvReport([]string{"CC=gcc", "PIP_INDEX_URL=https://u:p@x/simple", "CARGO_REGISTRY_TOKEN=t", "RANDOM=1"})
	if !slices.Equal(pass, []string{"CC"}) || !slices.Equal(stripped, []string{"PIP_INDEX_URL"}) || !slices.Equal(secret, []string{"CARGO_REGISTRY_TOKEN"}) {
		t.Errorf("EnvReport = %v %v %v", pass, stripped, secret)
	}
}

// FuzzMatchAny: the fast path of matchAny agrees with path.Match.
func FuzzMatchAny(f *testing.F) {
	for _, s := range []string{"LC_ALL", "GIT_AUTHOR_NAME", "AWS_SECRET", "PATH", "X", "[", `a\*`} {
		f.Add("LC_*", s)
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, glob, name string) {
		want, err := path.Match(glob, name)
		if err != nil {
			want = false
		}
		if got := matchAny([]string{glob}, name); got != want {
			t.Fatalf("matchAny(%q, %q) = %v, path.Match says %v", glob, name, got, want)
		}
	})
}
