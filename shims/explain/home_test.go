// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"strings"
	"testing"
)

func TestHomeLines(t *testing.T) {
	t.Parallel()
	c := Context{Workspace: "/home/user/proj", Cwd: "/home/user/proj", Home: "/home/user",
		Writable: []string{"/home/user/.npm", "/home/user/out"}}
	for _, tc := range []struct {
		cmd  string
		want string // "" for silence
	}{
		{"touch ~/report.md", "~/report.md is in the scratch home"},
		{"echo x > $HOME/notes.txt", "~/notes.txt is in the scratch home"},
		{"cd ~ && mkdir -p .config/tool", "~/.config/tool is in the scratch home"},
		{"cp a.txt ~/b.txt", "~/b.txt is in the scratch home"},
		{"sh -c 'tee ~/log.txt < x'", "~/log.txt is in the scratch home"},
		{"touch ~/a ~/b", "~/a, ~/b are in the scratch home"},
		{"touch ../up.txt", "~/up.txt is in the scratch home"},
		{"touch report.md", ""},          // the workspace
		{"touch ~/proj/report.md", ""},   // the workspace, spelt from ~
		{"touch ~/.npm/x", ""},           // a cache
		{"echo r > ~/out/r.md", ""},      // sandbox.write
		{"rm -f ~/old.txt", ""},          // nothing to lose
		{"cat ~/.bashrc > copy.txt", ""}, // a read
		{"touch /tmp/x /etc/hosts", ""},  // not the home
	} {
		got := strings.Join(HomeLines(tc.cmd, c, false), "\n")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.cmd, got, tc.want)
		}
		if got != "" && !strings.Contains(got, "sandbox.write") {
			t.Errorf("%q: %q names no key that would persist it", tc.cmd, got)
		}
	}
	if got := HomeLines("touch ~/x", c, true); len(got) != 1 || !strings.Contains(got[0], "when the session ends") {
		t.Errorf("in a session: %q", got)
	}
}
