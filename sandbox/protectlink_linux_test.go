// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// plantHook replaces .git/hooks, whatever it is, with a directory holding
// a pre-commit hook that leaves PLANTED in the workspace.
const plantHook = `rm -f .git/hooks 2>/dev/null || mv .git/hooks .git/old-hooks
mkdir .git/hooks && printf '#!/bin/sh\ntouch "$(git rev-parse --show-toplevel)/PLANTED"\n' > .git/hooks/pre-commit &&
chmod +x .git/hooks/pre-commit`

// specUnprotect is the default policy's spec with the user's
// sandbox.unprotect set to rel.
func specUnprotect(t *testing.T, ws, home string, rel ...string) sandbox.Spec {
	t.Helper()
	p := policy.Default()
	p.Sandbox.Unprotect = rel
	s, err := p.SandboxSpec(ws, home, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// prepareConfined is runConfined's Prepare alone, for a sandbox that is
// refused.
func prepareConfined(t *testing.T, b sandbox.Backend, s sandbox.Spec, script string) error {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s.Read = append(s.Read, exe)
	p, err := sandbox.Prepare(b, s, confine.Argv(exe, []string{"/bin/sh", "-c", script}))
	if err == nil {
		p.Done()
	}
	return err
}

// hostCommitPlants commits on the host and reports whether a hook left
// PLANTED (then removed).
func hostCommitPlants(t *testing.T, ws string) bool {
	t.Helper()
	gitHost(t, ws, "commit", "-q", "--allow-empty", "-m", "host")
	planted := filepath.Join(ws, "PLANTED")
	_, err := os.Lstat(planted)
	os.Remove(planted)
	return err == nil
}

// TestProtectedLinkRefused: escape class 60 through the real sandbox. A
// protected path that is a symbolic link (.git/hooks to a directory of
// hooks, .claude to dotfiles) could be replaced from inside by a
// directory of the command's own, which the host then runs; the sandbox
// refuses to start and says why, and the host's next commit runs
// nothing planted. Control: with the user's sandbox.unprotect the same
// script runs and the host's commit does run the planted hook, so the
// refusal is what stops it.
func TestProtectedLinkRefused(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	newRepo(t, ws)
	hooks := filepath.Join(ws, ".git", "hooks")
	if err := os.RemoveAll(hooks); err != nil {
		t.Fatal(err)
	}
	mustMkdir(t, filepath.Join(ws, "githooks"))
	mustSymlink(t, "../githooks", hooks)
	mustMkdir(t, filepath.Join(home, "dotfiles", "claude"))
	mustSymlink(t, filepath.Join(home, "dotfiles", "claude"), filepath.Join(ws, ".claude"))

	// The .claude cases unprotect .git/hooks, which would be refused first.
	for _, c := range []struct{ name, link, script, unprotect string }{
		{"hooks", ".git/hooks", plantHook, ".claude"},
		{"hooks retargeted", ".git/hooks", `ln -sfn ../src .git/hooks`, ".claude"},
		{"claude", ".claude", `rm .claude && mkdir .claude && echo '{"hooks":{}}' > .claude/settings.json`, ".git/hooks"},
		{"claude renamed", ".claude", `mv .claude .c && mkdir .claude && echo x > .claude/settings.json`, ".git/hooks"},
	} {
		err := prepareConfined(t, b, specUnprotect(t, ws, home, c.unprotect), c.script)
		var le *sandbox.LinkError
		if !errors.As(err, &le) || le.Link != c.link || !strings.Contains(err.Error(), "sandbox.unprotect") {
			t.Errorf("%s: Prepare = %v, want a refusal naming %s and the way out", c.name, err, c.link)
		}
		if fi, err := os.Lstat(filepath.Join(ws, c.link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: %s is no longer the link on the host: %v", c.name, c.link, err)
		}
	}
	if hostCommitPlants(t, ws) {
		t.Fatal("the host's commit ran a planted hook")
	}

	// Control: unprotected by the user, the link is replaced and the
	// host's next commit runs the hook (the attack the refusal stops).
	r := runConfined(t, b, specUnprotect(t, ws, home, ".git/hooks", ".claude"), runOpts{env: gitEnv},
		plantHook+` && rm .claude && mkdir .claude`)
	if r.code != 0 {
		t.Fatalf("unprotected: the script failed: %v", r)
	}
	if !hostCommitPlants(t, ws) {
		t.Error("control: the planted hook did not run on the host")
	}
}

// TestProtectedLinkElsewhere: the positive controls of class 60 through
// the real sandbox. With .git/hooks a directory, an ordinary link
// elsewhere in the workspace can be replaced and git's own writes in
// .git (objects, the index, refs) work, while .git/hooks itself can be
// neither removed, renamed nor replaced.
func TestProtectedLinkElsewhere(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	newRepo(t, ws)
	mustSymlink(t, "src", filepath.Join(ws, "docs"))
	s := specFor(t, ws, home, nil)
	r := runConfined(t, b, s, runOpts{env: gitEnv}, `set -e
		rm docs && mkdir docs && echo x > docs/a
		ln -s src other && ln -sfn docs other
		git add -A && git commit -q -m 'links and objects'`)
	if r.code != 0 {
		t.Fatalf("ordinary links and commits failed: %v", r)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "docs")); err != nil || !fi.IsDir() {
		t.Errorf("docs was not replaced by a directory: %v", err)
	}
	if got := gitHost(t, ws, "log", "-1", "--format=%s"); got != "links and objects" {
		t.Errorf("host log: %q", got)
	}
	for _, script := range []string{plantHook, `rm -rf .git/hooks`, `mv .git/hooks .git/h`} {
		if r := runConfined(t, b, s, runOpts{env: gitEnv}, script); r.code == 0 {
			t.Errorf("%q succeeded: %v", script, r)
		}
	}
	if fi, err := os.Lstat(filepath.Join(ws, ".git", "hooks")); err != nil || !fi.IsDir() {
		t.Errorf(".git/hooks changed on the host: %v", err)
	}
	if hostCommitPlants(t, ws) {
		t.Error("the host's commit ran a planted hook")
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
