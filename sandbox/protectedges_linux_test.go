// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDegradedHomeStartupFiles: escape class 61 through the real
// sandbox. A workspace of the home directory is writable, but the
// home's start-up files (shell rc files, git config, autostart, PATH
// directories, the agents' config) stay read-only, the missing ones
// included; placeholders are gone afterwards. Control: an ordinary file
// of the home is written.
func TestDegradedHomeStartupFiles(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, _ := fakeHome(t)
	bashrc := filepath.Join(home, ".bashrc")
	if err := os.WriteFile(bashrc, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustMkdir(t, filepath.Join(home, ".config"))
	s := specFor(t, home, home, nil)
	for _, c := range []struct{ script, changed string }{
		{`echo 'touch CANARY' >> .bashrc`, ""},
		{`rm .bashrc && echo 'touch CANARY' > .bashrc`, ""},
		{`echo 'touch CANARY' > .zshrc`, ".zshrc"},
		{`echo 'touch CANARY' > .profile`, ".profile"},
		{`echo 'touch CANARY' > .bash_profile`, ".bash_profile"},
		{`printf '[core]\n\tfsmonitor = touch CANARY\n' > .gitconfig`, ".gitconfig"},
		{`mkdir -p .config/git && echo x > .config/git/config`, ".config/git"},
		{`mkdir -p .config/autostart && echo x > .config/autostart/x.desktop`, ".config/autostart"},
		{`mkdir -p .config/systemd/user && echo x > .config/systemd/user/x.service`, ".config/systemd"},
		{`mkdir -p .local/bin && echo x > .local/bin/git`, ".local/bin"},
		{`mkdir -p .claude && echo x > .claude/settings.json`, ".claude"},
	} {
		r := run(t, b, s, c.script)
		if r.code == 0 {
			t.Errorf("%q succeeded in a home workspace: %v", c.script, r)
		}
		if c.changed != "" {
			if _, err := os.Lstat(filepath.Join(home, c.changed)); err == nil {
				t.Errorf("%q: %s exists on the host afterwards", c.script, c.changed)
			}
		}
	}
	if data, err := os.ReadFile(bashrc); err != nil || string(data) != "# mine\n" {
		t.Errorf(".bashrc on the host: %q, %v", data, err)
	}
	// The bash login placeholder reads on as bash would (to .profile).
	r := run(t, b, s, `cat .bash_profile`)
	if !strings.Contains(r.stdout, ". ~/.profile") {
		t.Errorf(".bash_profile placeholder: %v", r)
	}
	// Control: the rest of the home is the workspace, writable.
	if r := run(t, b, s, `echo ok > notes.txt && mkdir -p .config/myapp && echo ok > .config/myapp/x`); r.code != 0 {
		t.Errorf("control: an ordinary write in the home failed: %v", r)
	}
	if data, err := os.ReadFile(filepath.Join(home, "notes.txt")); err != nil || string(data) != "ok\n" {
		t.Errorf("control: notes.txt = %q, %v", data, err)
	}
}

// TestUnprotectGitConfig: escape class 61 through the real sandbox. The
// refusal of a write to .git/config names sandbox.unprotect as the way
// out, and it is one: unprotected by the user, git config writes there.
// Control: without it the same write fails and the file is unchanged.
func TestUnprotectGitConfig(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	newRepo(t, ws)
	cfg := filepath.Join(ws, ".git", "config")
	before, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	script := `git config lite.test yes`
	if r := runConfined(t, b, specFor(t, ws, home, nil), runOpts{env: gitEnv}, script); r.code == 0 {
		t.Errorf("protected: %q succeeded: %v", script, r)
	}
	if got, _ := os.ReadFile(cfg); string(got) != string(before) {
		t.Fatalf("protected .git/config changed:\n%s", got)
	}
	if r := runConfined(t, b, specUnprotect(t, ws, home, ".git/config"), runOpts{env: gitEnv}, script); r.code != 0 {
		t.Errorf("unprotected: %q failed: %v", script, r)
	}
	if got := gitHost(t, ws, "config", "lite.test"); got != "yes" {
		t.Errorf("host config lite.test = %q", got)
	}
	// Hooks stay protected: unprotect takes out only what it names.
	if r := runConfined(t, b, specUnprotect(t, ws, home, ".git/config"), runOpts{env: gitEnv}, plantHook); r.code == 0 {
		t.Errorf("hooks writable with .git/config unprotected: %v", r)
	}
}

// TestPlaceholdersOutOfNewRepo: escape class 61 through the real
// sandbox. In a workspace that is not a repository, a repository created
// inside (`git init` at the top, and one in a subdirectory) does not
// commit the placeholders with `git add -A`. Control: the placeholders
// are there inside, and an ordinary dotfile beside them is committed.
func TestPlaceholdersOutOfNewRepo(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	r := runConfined(t, b, specFor(t, ws, home, nil), runOpts{env: gitEnv}, `set -e
		test -f .envrc && test -f .mcp.json
		echo x > .ordinary
		git init -q . && git add -A && git commit -q -m top
		git ls-files
		git init -q sub && cd sub && echo y > f && git add -A && git commit -q -m sub
		echo --; git ls-files`)
	if r.code != 0 {
		t.Fatalf("git init and commit failed: %v", r)
	}
	if want := ".ordinary\nREADME\n--\nf\n"; r.stdout != want {
		t.Errorf("committed files:\n%s\nwant:\n%s", r.stdout, want)
	}
}
