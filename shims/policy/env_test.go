// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"path"
	"slices"
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
