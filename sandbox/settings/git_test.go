// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package settings

import (
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

// TestGitConfigFile: entries keep their order and values (quoted so
// that git reads them back as they were), dropped ones leave no trace,
// and the forced settings come last, where they win.
func TestGitConfigFile(t *testing.T) {
	t.Parallel()
	list := "user.name\nAda \"Q\" User\x00user.email\nada@example.org\x00credential.helper\nstore SECRET\x00" +
		"alias.hi\n!echo a\\b\tc\x00core.hookspath\n~/.githooks\x00url.git@github.com:.insteadof\nhttps://github.com/\x00" +
		"url.https://tok:SECRET@github.com/.insteadof\nhttps://github.com/\x00pull.rebase\x00branch.autosetupmerge\nalways\x00"
	got := GitConfigFile(list)
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
	if got := GitConfigFile(""); !strings.HasSuffix(got, gitForced) {
		t.Errorf("an empty configuration gives %q", got)
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
