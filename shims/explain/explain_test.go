// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	t.Parallel()
	c := Context{
		Workspace: "/w",
		Cwd:       "/w/sub",
		Home:      "/home/u",
		Protect:   []string{"/w/.git/hooks", "/w/.git/config", "/w/.envrc", "/w/.claude"},
		Writable:  []string{"/home/u/.cache/go-build"},
	}
	off := c
	off.NetworkOff = true
	outside := "is outside the workspace and read-only in the sandbox (to allow: add it to sandbox.write)"
	for _, tc := range []struct {
		name string
		c    Context
		cmd  string
		want []string // substrings, one per line, in order; nil: no line
	}{
		{"redirect outside", c, "echo x > /etc/hosts", []string{"/etc/hosts " + outside}},
		{"append outside", c, "echo x >> /usr/local/bin/tool", []string{"/usr/local/bin/tool " + outside}},
		{"touch outside", c, "touch /opt/x /w/ok", []string{"/opt/x " + outside}},
		{"cp destination", c, "cp a.txt /srv/b.txt", []string{"/srv/b.txt " + outside}},
		{"mv source is not a target", c, "mv /srv/a.txt b.txt", nil},
		{"sed in place", c, "sed -i s/a/b/ /etc/fstab", []string{"/etc/fstab " + outside}},
		{"sed to stdout", c, "sed s/a/b/ /etc/fstab", nil},
		{"tee", c, "echo x | tee -a /etc/x", []string{"/etc/x " + outside}},
		{"dd", c, "dd if=/dev/zero of=/boot/x", []string{"/boot/x " + outside}},
		{"relative escape", c, "touch ../../etc/x", []string{"../../etc/x " + outside}},
		{"protected hook", c, "echo x > ../.git/hooks/pre-commit", []string{"../.git/hooks/pre-commit is protected", "sandbox.protect"}},
		{"protected envrc", c, "touch /w/.envrc", []string{"/w/.envrc is protected"}},
		{"git config local", c, "git config core.editor vim", []string{".git/config is protected"}},
		{"inside sh -c", c, "sh -c 'echo x > /etc/y'", []string{"/etc/y " + outside}},
		{"home scratch", c, "echo x > ~/.bashrc", []string{"~/.bashrc is in the home directory"}},
		{"cache is writable", c, "touch /home/u/.cache/go-build/x", nil},
		{"tmp and dev", c, "echo x > /tmp/a; echo y > /dev/null", nil},
		{"workspace", c, "echo x > out.txt; mkdir -p build", nil},
		{"expansion is not guessed", c, `echo x > "$OUT"`, nil},
		{"network off", off, "curl https://example.com", []string{"the network is off", `sandbox.network = "open"`}},
		{"network off git fetch", off, "git fetch origin", []string{"the network is off"}},
		{"network open", c, "curl https://example.com", nil},
		{"network off local", off, "git status", nil},
		{"bad syntax", c, "echo 'x", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Lines(tc.cmd, tc.c)
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
			if !strings.HasPrefix(got[0], "lite-sandbox: ") {
				t.Errorf("%q lacks the prefix", got[0])
			}
		})
	}
	if got := Lines("touch /a /b /c /d /e", c); len(got) != maxLines {
		t.Errorf("got %d lines, want at most %d", len(got), maxLines)
	}
}
