// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"strings"
	"testing"
)

// TestGitEventLines: git's trace2 events of a command name the git
// command that could not write the protected .git/config (the outermost
// git of its process tree) or the read-only ~/.gitconfig; other errors,
// other files, malformed and oversized events give nothing.
func TestGitEventLines(t *testing.T) {
	t.Parallel()
	c := Context{Workspace: "/w", Cwd: "/w", Home: "/home/u", Protect: []string{"/w/.git/config", "/w/.git/hooks"}}
	start := func(sid string, argv string) string {
		return `{"event":"start","sid":"` + sid + `","argv":` + argv + "}\n"
	}
	busy := func(sid, file string) string {
		return `{"event":"error","sid":"` + sid + `","msg":"could not write config file ` + file + `: Device or resource busy","fmt":"could not write config file %s: Device or resource busy"}` + "\n"
	}
	lock := `{"event":"error","sid":"A","msg":"could not lock config file /home/u/.gitconfig: Read-only file system","fmt":"could not lock config file %s: Read-only file system"}` + "\n"
	for _, tc := range []struct {
		name   string
		events string
		want   []string
	}{
		{"husky", start("A", `["git","config","core.hooksPath",".husky/_"]`) + busy("A", "/w/.git/config"),
			[]string{`"git config core.hooksPath .husky/_", run by this command, could not write .git/config, which is read-only`, "ask the user to run that git command on the host"}},
		{"submodule helper names the outer command",
			start("A", `["git","submodule","update","--init"]`) + start("A/B", `["git","submodule--helper","update","--init","--"]`) + busy("A/B", "/w/.git/config") + busy("A/B", "/w/.git/config"),
			[]string{`"git submodule update --init", run by this command`}},
		{"quoted argv", start("A", `["git","config","alias.x","!echo hi"]`) + busy("A", "/w/.git/config"), []string{`"git config alias.x '!echo hi'"`}},
		{"global copy", start("A", `["git","config","--global","user.name","x"]`) + lock, []string{"lite-sandbox: ~/.gitconfig (the user's git settings", `"git config --global user.name x", run by this command, could not save its setting there`}},
		{"no start event", busy("Z", "/w/.git/config"), []string{"a git command run by this command could not write .git/config"}},
		{"unprotected file", start("A", `["git","config","-f","x","a.b","c"]`) + busy("A", "/w/x"), nil},
		{"other error", start("A", `["git","status"]`) + `{"event":"error","sid":"A","msg":"not a git repository","fmt":"not a git repository"}` + "\n", nil},
		{"relative file", busy("A", ".git/config"), nil},
		{"not json", `{"event":"error",` + "\n", nil},
		{"oversized event", `{"event":"error","msg":"` + strings.Repeat("x", gitEventsLine*2) + "\n" + start("A", `["git","config","a.b","c"]`) + busy("A", "/w/.git/config"), []string{`"git config a.b c"`}},
		{"none", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := GitEventLines(strings.NewReader(tc.events), c)
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Errorf("got %q, want nothing", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %q, want one line", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) || !strings.HasPrefix(got[0], "lite-sandbox: ") {
					t.Errorf("got %q, want it to contain %q", got[0], w)
				}
			}
		})
	}
}

// TestIsGitConfigLine: the command line's lines for git's configuration
// are the ones git's record replaces; others stay.
func TestIsGitConfigLine(t *testing.T) {
	t.Parallel()
	c := Context{Workspace: "/w", Cwd: "/w", Home: "/home/u", Protect: []string{"/w/.git/config"}}
	for cmd, want := range map[string]bool{
		"git config a.b c":                true,
		"git config --global user.name x": true,
		"touch /etc/x":                    false,
	} {
		ls := Lines(cmd, c)
		if len(ls) == 0 || IsGitConfigLine(ls[0]) != want {
			t.Errorf("%s: lines %q, want replaced %v", cmd, ls, want)
		}
	}
}
