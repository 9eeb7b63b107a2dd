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

// TestKeepGitKey: identity, aliases, the hooks path and the settings
// that make git behave as on the host are kept; credentials, http.*
// (extraHeader tokens), URLs with user information, signing and the
// settings the sandbox forces stay out.
func TestKeepGitKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key  string
		keep bool
	}{
		{"user.name", true}, {"user.email", true}, {"author.email", true}, {"committer.name", true},
		{"alias.co", true}, {"alias.st", true}, {"core.hookspath", true}, {"core.editor", true},
		{"core.excludesfile", true}, {"core.autocrlf", true}, {"init.defaultbranch", true},
		{"pull.rebase", true}, {"merge.conflictstyle", true}, {"filter.lfs.clean", true},
		{"filter.lfs.process", true}, {"safe.directory", true}, {"url.git@github.com:.insteadof", true},
		{"url.ssh://git@example.com/.insteadof", true}, {"url.https://mirror.example/.insteadof", true},
		{"commit.template", true}, {"push.default", true}, {"diff.algorithm", true},

		{"credential.helper", false}, {"credential.https://example.com.helper", false},
		{"credential.username", false}, {"http.extraheader", false},
		{"http.https://example.com/.extraheader", false}, {"http.proxy", false},
		{"url.https://x-access-token:TOKEN@github.com/.insteadof", false},
		{"url.https://TOKEN@github.com/.insteadof", false}, {"url.ssh://u:pw@example.com/.insteadof", false},
		{"url.git@github.com:.fetch", false}, {"core.fsmonitor", false}, {"core.sshcommand", false},
		{"core.askpass", false}, {"core.gitproxy", false}, {"core.worktree", false},
		{"commit.gpgsign", false}, {"tag.gpgsign", false}, {"gpg.program", false}, {"gpg.format", false},
		{"branch.autosetupmerge", false}, {"push.autosetupremote", false}, {"remote.origin.url", false},
		{"include.path", false}, {"includeif.gitdir:~/w/.path", false}, {"lfs.url", false},
		{"sendemail.smtppass", false}, {"filter.x.unknown", false}, {"protocol.ext.other", false},
		{"nosection", false},
	} {
		if got := keepGitKey(tc.key); got != tc.keep {
			t.Errorf("keepGitKey(%q) = %v, want %v", tc.key, got, tc.keep)
		}
	}
}

// TestRenderGitConfig: entries keep their order and values (quoted so
// that git reads them back as they were), dropped ones leave no trace,
// and the forced settings come last, where they win.
func TestRenderGitConfig(t *testing.T) {
	t.Parallel()
	list := "user.name\nAda \"Q\" User\x00user.email\nada@example.org\x00credential.helper\nstore SECRET\x00" +
		"alias.hi\n!echo a\\b\tc\x00core.hookspath\n~/.githooks\x00url.git@github.com:.insteadof\nhttps://github.com/\x00" +
		"url.https://tok:SECRET@github.com/.insteadof\nhttps://github.com/\x00pull.rebase\x00branch.autosetupmerge\nalways\x00"
	got := renderGitConfig(list)
	want := `[user]
	name = "Ada \"Q\" User"
	email = "ada@example.org"
[alias]
	hi = "!echo a\\b\tc"
[core]
	hookspath = "~/.githooks"
[url "git@github.com:"]
	insteadof = "https://github.com/"
[pull]
	rebase
` + gitForced
	if i := strings.Index(got, "[user]"); i < 0 || got[i:] != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "SECRET") {
		t.Errorf("a secret reached the copy:\n%s", got)
	}
	if got := renderGitConfig(""); !strings.HasSuffix(got, gitForced) {
		t.Errorf("an empty configuration gives %q", got)
	}
}

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

// TestFromOutside: only the global scope is kept (both global files),
// without entries from a file in the workspace (an include of the
// user's pointing there); the others keep their order.
func TestFromOutside(t *testing.T) {
	t.Parallel()
	out := "global\x00file:/home/u/.gitconfig\x00user.name\nAda\x00global\x00file:/home/u/w/inc\x00core.hookspath\n/home/u/Documents\x00" +
		"global\x00file:/home/u/.config/git/config\x00alias.x\n!id\x00command\x00command line:\x00user.name\nX\x00" +
		"local\x00file:.git/config\x00core.bare\nfalse\x00"
	if got, want := fromOutside(out, "/home/u/w"), "user.name\nAda\x00alias.x\n!id\x00"; got != want {
		t.Errorf("got %q, want %q", got, want)
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
