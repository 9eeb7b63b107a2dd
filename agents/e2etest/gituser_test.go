// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The user's git in the sandbox (issue #31): a home with a global
// configuration (identity, an alias, a global hooks directory, an
// includeIf for the workspace) and secrets beside them (a credential
// helper, a token in a URL, an http header).
const (
	credCanary = "CRED-CANARY-0b7e"
	urlCanary  = "URL-CANARY-91c2"
	hdrCanary  = "HDR-CANARY-4d5a"
	xdgCanary  = "XDG-CANARY-77e0"
)

// gitUserScript runs in the sandbox: two commits around an attempt to
// change the identity, the alias, and what git's configuration shows.
const gitUserScript = `git config --list > cfg.txt 2>&1
git commit -q --allow-empty -m one; echo "one=$?" >> st.txt
git hi > alias.txt 2>&1
git config --global user.name Evil; echo "global=$?" >> st.txt
git commit -q --allow-empty -m two; echo "two=$?" >> st.txt
`

// gitUserHome writes the user's git configuration into e's home and
// makes e's workspace a repository (with git's own defaults, no hooks).
func gitUserHome(t *testing.T, e *env) string {
	t.Helper()
	cfg := fmt.Sprintf(`[user]
	name = Ada User
	email = ada@home.example
[alias]
	hi = "!echo hi-from-the-alias"
[core]
	hooksPath = ~/.githooks
[credential]
	helper = store --file /var/tmp/%s
[url "https://x-access-token:%s@example.com/"]
	insteadOf = https://example.com/
[http]
	extraHeader = Authorization: Bearer %s
[includeIf "gitdir:%s/"]
	path = ~/.gitconfig-work
`, credCanary, urlCanary, hdrCanary, e.ws)
	e.write("~/.gitconfig", cfg)
	e.write("~/.gitconfig-work", "[user]\n\temail = ada@work.example\n")
	// The XDG file too: its alias reaches the copy, its header does not.
	e.write("~/.config/git/config", "[alias]\n\txdg = !echo xdg\n[http]\n\textraHeader = X: "+xdgCanary+"\n")
	e.write("~/.githooks/pre-commit", "#!/bin/sh\necho ran >> hook-marker\n")
	if err := os.Chmod(filepath.Join(e.home, ".githooks", "pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.hostGit("init", "-q")
	e.write("inner/f", "x\n")
	e.hostGit("-C", "inner", "init", "-q")
	e.hostGit("-C", "inner", "add", "f")
	e.hostGit("-C", "inner", "-c", "user.name=i", "-c", "user.email=i@i", "commit", "-qm", "inner")
	e.hostGit("remote", "add", "origin", filepath.Join(e.ws, "inner"))
	e.hostGit("fetch", "-q", "origin")
	// The positive control of the secrets: the host's git does see them.
	list := e.hostGitUser("config", "--list")
	for _, c := range []string{credCanary, urlCanary, hdrCanary, xdgCanary, "user.name=Ada User"} {
		if !strings.Contains(list, c) {
			t.Fatalf("the host's git does not see %s:\n%s", c, list)
		}
	}
	return cfg
}

// hostGit runs git on the host in the workspace, without the user's
// configuration (no hooks).
func (e *env) hostGit(args ...string) string {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = e.ws
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + filepath.Join(e.home, "nonexistent"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// hostGitUser runs git on the host as the user would (their home).
func (e *env) hostGitUser(args ...string) string {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = e.ws
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + e.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// runLS runs lite-sandbox ARGS as e's user in the workspace.
func (e *env) runLS(args ...string) (string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	e.chownTree()
	cmd := e.lsCmd(ctx, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("lite-sandbox %v: timed out\n%s", args, out.String())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("lite-sandbox %v: %v", args, err)
	}
	return out.String(), 0
}

// checkGitUser checks what gitUserScript left: both commits by the
// user (the includeIf's address), the hook run twice, the alias, no
// secret in git's view, the global file refused and unchanged.
func (e *env) checkGitUser(cfg, out string, commits int, branches ...string) {
	t := e.t
	t.Helper()
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(e.ws, name))
		return string(b)
	}
	if st := read("st.txt"); !strings.Contains(st, "one=0") || !strings.Contains(st, "two=0") || strings.Contains(st, "global=0") || !strings.Contains(st, "global=") {
		t.Errorf("statuses %q: want both commits 0 and the global write refused\n%s", st, out)
	}
	if got := e.hostGit(append([]string{"log", "--format=%an <%ae>"}, branches...)...); got != strings.Repeat("Ada User <ada@work.example>\n", commits) {
		t.Errorf("the commits' authors: %q, want the user's (from the includeIf) %d times\n%s", got, commits, out)
	}
	if got := read("hook-marker"); got != strings.Repeat("ran\n", commits) {
		t.Errorf("the global pre-commit hook: %q, want it run %d times", got, commits)
	}
	if got := read("alias.txt"); got != "hi-from-the-alias\n" {
		t.Errorf("the alias printed %q", got)
	}
	list := read("cfg.txt")
	for _, c := range []string{credCanary, urlCanary, hdrCanary, xdgCanary, "Evil"} {
		if strings.Contains(list, c) {
			t.Errorf("git config --list in the sandbox shows %s:\n%s", c, list)
		}
	}
	if !strings.Contains(list, "user.name=Ada User") || !strings.Contains(list, "alias.hi=") || !strings.Contains(list, "alias.xdg=") {
		t.Errorf("git config --list in the sandbox lacks the user's settings:\n%s", list)
	}
	if b, _ := os.ReadFile(filepath.Join(e.home, ".gitconfig")); string(b) != cfg {
		t.Errorf("~/.gitconfig changed on the host:\n%s", b)
	}
}

// TestGitUserRun: under `lite-sandbox run`, git commits with the user's
// identity (an includeIf for the workspace resolved), runs their global
// hook and alias, shows none of their credentials, and a `git config
// --global` is refused with a line that says so. Root and unprivileged.
func TestGitUserRun(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		cfg := gitUserHome(t, e)
		out, code := e.runLS("run", "--sandbox", "on", "--", "sh", "-c", gitUserScript)
		if code != 0 {
			t.Fatalf("run: exit %d\n%s", code, out)
		}
		e.checkGitUser(cfg, out, 2, "master")
		out, code = e.runLS("run", "--sandbox", "on", "--", "git", "config", "--global", "user.name", "Evil")
		if code == 0 || !strings.Contains(out, "lite-sandbox: ~/.gitconfig (the user's git settings") {
			t.Errorf("git config --global: exit %d, want a failure with the explanation\n%s", code, out)
		}
		e.checkSubmoduleRefused()
	})
}

// TestGitUserSession: the same in a session (`launch exec`), whose
// sandbox makes the copy once.
func TestGitUserSession(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		cfg := gitUserHome(t, e)
		out, code := e.runLS("launch", "--sandbox", "on", "exec", "--", "/bin/sh", "-c", gitUserScript+gitFlowScript)
		if code != 0 {
			t.Fatalf("launch exec: exit %d\n%s", code, out)
		}
		e.checkGitUser(cfg, out, 4, "master", "topic")
		e.checkGitFlow(out)
		// The agent ring (a program, not a shell: it runs in the ring
		// itself) reads the same copy: the identity, no secret.
		out, code = e.runLS("launch", "--sandbox", "on", "exec", "--", "/usr/bin/python3", "-c",
			"import os\nprint(open(os.path.expanduser('~/.gitconfig')).read())\n"+
				"try: print(open(os.path.expanduser('~/.config/git/config')).read())\nexcept OSError as e: print('xdg:', e)")
		if code != 0 || !strings.Contains(out, `name = "Ada User"`) || !strings.Contains(out, `xdg = "!echo xdg"`) {
			t.Errorf("the ring's ~/.gitconfig: exit %d, want the user's identity and the XDG alias\n%s", code, out)
		}
		for _, c := range []string{credCanary, urlCanary, hdrCanary, xdgCanary} {
			if strings.Contains(out, c) {
				t.Errorf("the ring's ~/.gitconfig shows %s:\n%s", c, out)
			}
		}
	})
}

// gitFlowScript follows gitUserScript in a session: a branch made from
// a commit, a linked worktree in the workspace, a rebase, each by the
// user, and a branch made from a remote-tracking one (which would
// record its upstream in .git/config); none of them may print an error
// about git's configuration.
const gitFlowScript = `git switch -q -c topic 2>>flow-err.txt && git commit -q --allow-empty -m three 2>>flow-err.txt
git switch -q - 2>>flow-err.txt && git commit -q --allow-empty -m four 2>>flow-err.txt
git worktree add -q wt -b wtb 2>>flow-err.txt; echo "worktree=$?" >> st.txt
git rebase -q master topic 2>>flow-err.txt; echo "rebase=$?" >> st.txt
git switch -q -c from-remote origin/master 2>>flow-err.txt; echo "track=$?" >> st.txt
`

// checkGitFlow checks what gitFlowScript left.
func (e *env) checkGitFlow(out string) {
	t := e.t
	t.Helper()
	st, _ := os.ReadFile(filepath.Join(e.ws, "st.txt"))
	if !strings.Contains(string(st), "worktree=0") || !strings.Contains(string(st), "rebase=0") || !strings.Contains(string(st), "track=0") {
		t.Errorf("statuses %q\n%s", st, out)
	}
	if b, _ := os.ReadFile(filepath.Join(e.ws, "flow-err.txt")); len(b) != 0 {
		t.Errorf("git printed errors: %s", b)
	}
	if got := e.hostGit("log", "--format=%an %s", "topic"); got != "Ada User three\nAda User four\nAda User two\nAda User one\n" {
		t.Errorf("topic after the rebase: %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "wt", ".git")); err != nil {
		t.Errorf("the worktree: %v", err)
	}
	if got := e.hostGit("worktree", "list", "--porcelain"); !strings.Contains(got, "branch refs/heads/wtb") {
		t.Errorf("the host's git does not know the worktree:\n%s", got)
	}
}

// checkSubmoduleRefused: `git submodule add` of a repository in the
// workspace is refused before it starts (nothing cloned, nothing
// staged), while a clone of the same repository works (the control).
func (e *env) checkSubmoduleRefused() {
	t := e.t
	out, code := e.runLS("run", "--sandbox", "on", "--", "git", "submodule", "add", filepath.Join(e.ws, "inner"), "sub")
	if code != 77 || !strings.Contains(out, "git.repo-config.submodule") || !strings.Contains(out, "on the host") {
		t.Errorf("git submodule add: exit %d, want 77 with the rule and the way out\n%s", code, out)
	}
	if st := e.hostGit("status", "--porcelain"); strings.Contains(st, "sub") {
		t.Errorf("something of the submodule is left:\n%s", st)
	}
	if _, err := os.Lstat(filepath.Join(e.ws, "sub")); err == nil {
		t.Errorf("the submodule was cloned")
	}
	out, code = e.runLS("run", "--sandbox", "on", "--", "git", "clone", "-q", filepath.Join(e.ws, "inner"), "clone2")
	if code != 0 {
		t.Fatalf("the control: git clone of the same repository: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "clone2", "f")); err != nil {
		t.Errorf("the control clone is missing: %v", err)
	}
}

// TestClaudeGitIdentity: the real Claude Code CLI under launch, told by
// the scripted model to commit, commits with the user's identity (and
// their global hook runs in the command sandbox). Root and
// unprivileged.
func TestClaudeGitIdentity(t *testing.T) {
	bin := agentBin(t, "claude", "npm install -g @anthropic-ai/claude-code@2.1.197")
	mk := func(t *testing.T) *env {
		return newEnv(t, bin, "git commit -q --allow-empty -m by-the-agent && git log -1 --format='%an <%ae>'")
	}
	asUsers(t, mk, "claude", func(t *testing.T, e *env) {
		gitUserHome(t, e)
		out, errs, code := runClaude(e)
		if code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		}
		if got := e.hostGit("log", "--format=%an <%ae> %s"); got != "Ada User <ada@work.example> by-the-agent\n" {
			t.Errorf("the agent's commit: %q, want the user's identity\nstdout:\n%s\nstderr:\n%s", got, out, errs)
		}
		if res := e.result(out, errs); !strings.Contains(res, "Ada User <ada@work.example>") {
			t.Errorf("the model read %q, want the user's identity", res)
		}
		if b, _ := os.ReadFile(filepath.Join(e.ws, "hook-marker")); string(b) != "ran\n" {
			t.Errorf("the global hook: %q", b)
		}
	})
}
