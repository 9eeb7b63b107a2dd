// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutsideLines (#31): after a failure, a path outside the workspace
// that exists on the host but is not shown in the sandbox is named with
// the way out; a tool found on the host's PATH only in a hidden
// directory, and a workspace below its repository's .git, too. Beside
// each, the control: the same command on a visible or missing path, a
// tool the sandbox finds, a workspace with its own .git, says nothing.
func TestOutsideLines(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mk := func(rel string, mode os.FileMode) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk("repo/.git/HEAD", 0o644)
	mk("repo/sub/a", 0o644)
	mk("other/f", 0o644)
	mk("home/bin/mytool", 0o755)
	mk("usr/bin/systool", 0o755)
	mk("home/bin/systool", 0o755)
	mk("ws/.git/HEAD", 0o644)
	mk("shared/f", 0o644)
	mk("etc/hosts", 0o644)
	mk("etc/shadow", 0o600)
	home := filepath.Join(root, "home")
	c := Context{Workspace: filepath.Join(root, "repo", "sub"), Cwd: filepath.Join(root, "repo", "sub"), Home: home,
		Visible: []string{filepath.Join(root, "usr"), filepath.Join(root, "shared"), filepath.Join(root, "etc", "hosts")},
		Path:    filepath.Join(home, "bin") + ":" + filepath.Join(root, "usr", "bin")}
	own := c
	own.Workspace, own.Cwd = filepath.Join(root, "ws"), filepath.Join(root, "ws")
	unknown := c
	unknown.Visible = nil
	for _, tc := range []struct {
		name string
		c    Context
		cmd  string
		want []string // substrings of the one line; nil: no line
	}{
		{"sibling", own, "cat ../other/f", []string{filepath.Join(root, "other", "f") + " exists on the host but is ", "sandbox.read"}},
		{"sibling missing", own, "cat ../other/nothing", nil},
		{"write to a sibling", own, "touch ../other/g", []string{"../other/g is in " + filepath.Join(root, "other") + ", which exists on the host but is not visible", "sandbox.write"}},
		{"write to a missing sibling", own, "touch ../nodir/g", nil},
		{"visible grant", own, "cat ../shared/f", nil},
		{"listed entry", own, "cat ../etc/hosts", nil},
		{"directory on the way to a grant", own, "ls ../etc", nil},
		{"unlisted entry", own, "cat ../etc/shadow", []string{filepath.Join(root, "etc", "shadow") + " exists on the host but is "}},
		{"workspace", own, "cat .git/HEAD", nil},
		{"home tool by path", own, "~/bin/mytool", []string{"~/bin/mytool exists on the host but is in the home directory"}},
		{"tool on PATH", own, "mytool --version", []string{"mytool is " + filepath.Join(home, "bin", "mytool"), "add ~/bin to sandbox.tools"}},
		{"tool the sandbox finds first", own, "systool", nil},
		{"tool nowhere", own, "nosuchtool", nil},
		{"subdirectory workspace", c, "git status", []string{"subdirectory of the git repository " + filepath.Join(root, "repo"), "start lite-sandbox from the repository's root"}},
		{"own repository", own, "git status", nil},
		{"no sandbox shape", unknown, "cat ../../other/f; git status", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// systool: the hidden ~/bin comes first on PATH, but the
			// control puts the visible one first.
			cc := tc.c
			if tc.name == "tool the sandbox finds first" {
				cc.Path = filepath.Join(root, "usr", "bin") + ":" + filepath.Join(home, "bin")
			}
			got := Lines(tc.cmd, cc)
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("got %q, want no line", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d lines %q, want 1", len(got), got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("%q lacks %q", got[0], w)
				}
			}
		})
	}
}

// TestRootLine (#31): a recursive rm run as root gets the line about
// root without capabilities; not as another user, not without -r, not
// for another command (the controls).
func TestRootLine(t *testing.T) {
	t.Parallel()
	c := Context{Workspace: "/w", Cwd: "/w", Root: true}
	user := c
	user.Root = false
	for _, tc := range []struct {
		c    Context
		cmd  string
		want string
	}{
		{c, "rm -rf vendor", "chmod -R u+w vendor"},
		{c, "rm -R -f a b", "chmod -R u+w a b"},
		{c, "rm --recursive --force build", "chmod -R u+w build"},
		{c, "sudo rm -fr x", "chmod -R u+w x"},
		{c, "rm -f file", ""},
		{c, "cp -r a b", ""},
		{user, "rm -rf vendor", ""},
	} {
		got := Lines(tc.cmd, tc.c)
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%q: got %q, want no line", tc.cmd, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.Contains(got[0], "root has no capabilities")):
			t.Errorf("%q: got %q, want a line with %q", tc.cmd, got, tc.want)
		}
	}
}
