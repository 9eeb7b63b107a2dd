// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGitHomeMounts: the copy is bound read-only at ~/.gitconfig and
// the files it names read-only at themselves, after the caches (so a
// writable grant cannot hold the user's hooks writable) and before the
// workspace; with no home there is nothing.
func TestGitHomeMounts(t *testing.T) {
	t.Parallel()
	f := debianFS()
	f["/home/user/.githooks"] = "dir"
	f["/var/lib/lite-sandbox/gitconfig-1"] = "file"
	s := defaultSpec(t, "/home/user/project")
	s.Write = append(s.Write, "/home/user/.githooks")
	s.GitHome = gitHome{Config: "/var/lib/lite-sandbox/gitconfig-1", Read: []string{"/home/user/.githooks", "/home/user/.config/git/ignore"}}
	ms := mustLayout(t, s, f)
	idx := func(m Mount) int {
		for i, o := range ms {
			if o == m {
				return i
			}
		}
		t.Fatalf("no %v in %v", m, ms)
		return -1
	}
	cfg := idx(Mount{Kind: ROBind, Src: s.GitHome.Config, Dst: "/home/user/.gitconfig"})
	hooks := idx(Mount{Kind: ROBind, Src: "/home/user/.githooks", Dst: "/home/user/.githooks"})
	grant := idx(Mount{Kind: Bind, Src: "/home/user/.githooks", Dst: "/home/user/.githooks"})
	ws := idx(Mount{Kind: Bind, Src: s.Workspace, Dst: s.Workspace})
	if !(grant < hooks && hooks < cfg && cfg < ws) {
		t.Errorf("order grant %d < hooks %d < copy %d < workspace %d broken", grant, hooks, cfg, ws)
	}
	for _, m := range ms {
		if m.Dst == "/home/user/.config/git/ignore" {
			t.Errorf("a missing file is bound: %v", m)
		}
	}
	s.Read = []string{"/home/user"} // the home granted: the real file shows
	for _, m := range mustLayout(t, s, f) {
		if m.Dst == "/home/user/.gitconfig" {
			t.Errorf("with the home granted: %v", m)
		}
	}
	s.Read, s.Home = nil, ""
	for _, m := range mustLayout(t, s, f) {
		if strings.HasSuffix(m.Dst, "/.gitconfig") {
			t.Errorf("without a home: %v", m)
		}
	}
}

// TestUserGitConfig: the host's git reads the user's files (an include
// followed, an includeIf judged for the workspace); the hooks directory
// below the home is named for a bind, while paths outside the home, in
// the workspace or reached through a symlink that leaves the home are
// not, and an include in the workspace brings nothing.
func TestUserGitConfig(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(home, "ws")
	files := map[string]string{
		".gitconfig": "[user]\n\tname = Ada\n[core]\n\thooksPath = ~/.githooks\n\texcludesFile = /etc/passwd\n\tattributesFile = ~/ws/attrs\n" +
			"[commit]\n\ttemplate = ~/link\n[include]\n\tpath = ~/ws/inc\n[includeIf \"gitdir:" + ws + "/\"]\n\tpath = ~/work\n",
		"work": "[user]\n\temail = ada@work.example\n", "ws/inc": "[alias]\n\tevil = !id\n", "ws/attrs": "",
		".config/git/config":   "[alias]\n\txdg = !echo xdg\n",
		".githooks/pre-commit": "#!/bin/sh\n",
	}
	for name, data := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(home, "link")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	// The host's XDG_CONFIG_HOME would point the reading elsewhere
	// (t.Setenv: this test is not parallel).
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	content, read := userGitConfig(Spec{Workspace: ws, Home: home})
	for _, want := range []string{`name = "Ada"`, `email = "ada@work.example"`, `hookspath = "~/.githooks"`, `xdg = "!echo xdg"`} {
		if !strings.Contains(content, want) {
			t.Errorf("the copy lacks %s:\n%s", want, content)
		}
	}
	if strings.Contains(content, "evil") {
		t.Errorf("an include in the workspace reached the copy:\n%s", content)
	}
	if want := []string{filepath.Join(home, ".githooks")}; !slices.Equal(read, want) {
		t.Errorf("read = %v, want %v", read, want)
	}
}
