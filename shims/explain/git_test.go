// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"strings"
	"testing"
)

// TestGitLines: a failed git command that writes .git/config or the
// user's ~/.gitconfig (both read-only in the sandbox) is explained with
// the way out, whatever its spelling; git commands that only read, or
// write neither, get no line (issue #31).
func TestGitLines(t *testing.T) {
	t.Parallel()
	c := Context{Workspace: "/w", Cwd: "/w/sub", Home: "/home/u", Protect: []string{"/w/.git/config"}}
	outside := "is outside the workspace and read-only in the sandbox"
	for _, tc := range []struct {
		name string
		cmd  string
		want []string // substrings of the one line; nil: no line
	}{
		{"git config global", "git config --global user.name evil", []string{"~/.gitconfig (the user's git settings", "read-only in the sandbox", "on the host, with git config --global"}},
		{"git config get", "git config --get user.name", nil},
		{"git config read one", "git config user.name", nil},
		{"git config list", "git -C sub config --global --list", nil},
		{"git config file", "git config --file /etc/x a.b c", []string{"/etc/x " + outside}},
		{"git config set", "git config set --local user.name x", []string{".git/config is protected", "run this git command on the host"}},
		{"git submodule add", "git submodule add ../lib lib", []string{".git/config is protected"}},
		{"git submodule update --init", "git submodule update --init --recursive", []string{".git/config is protected"}},
		{"git submodule update", "git submodule update", nil},
		{"git remote add", "git -C /w remote add up https://example.com/x", []string{".git/config is protected"}},
		{"git remote -v", "git remote -v", nil},
		{"git branch -m", "git branch -m a b", []string{".git/config is protected"}},
		{"git branch", "git branch topic", nil},
		{"git push -u", "git push -u origin topic", []string{".git/config is protected"}},
		{"git push", "git push origin topic", nil},
		{"git init again", "git init", []string{".git/config is protected"}},
		{"git init new", "git init sub2", nil},
		{"git lfs install", "git lfs install", []string{"~/.gitconfig"}},
		{"git commit", "git commit -m x", nil},
	} {
		got := Lines(tc.cmd, c)
		if len(tc.want) == 0 {
			if len(got) != 0 {
				t.Errorf("%s: got %q, want no line", tc.name, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: got %d lines %q, want 1", tc.name, len(got), got)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got[0], w) {
				t.Errorf("%s: %q lacks %q", tc.name, got[0], w)
			}
		}
	}
}
