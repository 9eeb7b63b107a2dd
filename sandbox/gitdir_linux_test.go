// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// gitFileEnv lets git use file:// remotes and local submodules (off by
// default since git 2.38.1), through the environment, not a config file.
var gitFileEnv = append(append([]string{}, gitEnv...),
	"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=protocol.file.allow", "GIT_CONFIG_VALUE_0=always")

// gitRepoWithSubmodule makes home/remote.git (a bare remote of the
// workspace, which is cloned from it), home/subsrc (a submodule's
// upstream) and the workspace with the submodule "sub" and a linked
// worktree "wt" inside it.
func gitRepoWithSubmodule(t *testing.T, home, ws string) (remote, subsrc string) {
	t.Helper()
	seed := filepath.Join(home, "seed")
	newRepo(t, seed)
	subsrc = filepath.Join(home, "subsrc")
	newRepo(t, subsrc)
	remote = filepath.Join(home, "remote.git")
	gitHost(t, home, "clone", "-q", "--bare", seed, remote)
	os.RemoveAll(ws)
	gitHost(t, home, "clone", "-q", "file://"+remote, ws)
	gitHost(t, ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "file://"+subsrc, "sub")
	gitHost(t, ws, "commit", "-q", "-m", "add sub")
	gitHost(t, ws, "push", "-q", "origin", "main")
	gitHost(t, ws, "worktree", "add", "-q", "-b", "wtb", "wt")
	return remote, subsrc
}

// TestGitWorkInSandbox: the git work agents do still succeeds inside the
// sandbox with the workspace's .git protected by default.
func TestGitWorkInSandbox(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	remote, subsrc := gitRepoWithSubmodule(t, home, ws)
	// Upstream moves on, for fetch, pull and submodule update.
	other := filepath.Join(home, "other")
	gitHost(t, home, "clone", "-q", remote, other)
	os.WriteFile(filepath.Join(other, "up.txt"), []byte("up\n"), 0o644)
	gitHost(t, other, "add", ".")
	gitHost(t, other, "commit", "-q", "-m", "upstream")
	gitHost(t, other, "push", "-q", "origin", "main")
	os.WriteFile(filepath.Join(subsrc, "s.txt"), []byte("s\n"), 0o644)
	gitHost(t, subsrc, "add", ".")
	gitHost(t, subsrc, "commit", "-q", "-m", "sub upstream")
	s := specFor(t, ws, home, func(s *sandbox.Spec) { s.Read = append(s.Read, remote, subsrc) })

	steps := []struct{ name, script string }{
		{"commit", `echo a >> src/main.c && git commit -q -am a`},
		{"branch", `git branch side && git checkout -q side && echo b > b.txt && git add b.txt && git commit -q -m b && git checkout -q main`},
		{"merge", `git merge -q --no-edit side`},
		{"cherry-pick", `git checkout -q -b cp side~1 && git cherry-pick side && git checkout -q main`},
		{"rebase", `git checkout -q -b rb side~1 && echo r > r.txt && git add r.txt && git commit -q -m r && git rebase -q main && git checkout -q main`},
		{"interactive rebase", `git checkout -q rb && GIT_SEQUENCE_EDITOR=true git rebase -q -i main~1 && git checkout -q main`},
		{"stash", `echo s >> src/main.c && git stash -q && git stash pop -q && git checkout -q src/main.c`},
		{"fetch", `git fetch -q origin`},
		{"pull", `git pull -q --no-rebase --no-edit origin main && test -f up.txt`},
		{"submodule update", `git -C sub fetch -q && git -C sub checkout -q origin/HEAD && git add sub && git commit -q -m bump && git submodule update -q && test -f sub/s.txt`},
		{"linked worktree in the workspace", `cd wt && echo w > w.txt && git add w.txt && git commit -q -m w`},
		{"worktree add", `git worktree add -q -b nb nwt && cd nwt && echo n > n.txt && git add n.txt && git commit -q -m n`},
		{"gc", `git gc -q && git log --oneline main >/dev/null`},
		{"status clean", `git status --porcelain --ignore-submodules=none`},
	}
	for _, st := range steps {
		r := runConfined(t, b, s, runOpts{env: gitFileEnv}, "set -e\n"+st.script)
		if r.code != 0 {
			t.Fatalf("%s: %v", st.name, r)
		}
		if st.name == "status clean" && strings.TrimSpace(r.stdout) != "?? nwt/\n?? wt/" {
			t.Errorf("git status inside: %q", r.stdout)
		}
	}
	for _, want := range []string{"w", "n", "bump", "r"} {
		if !strings.Contains(gitHost(t, ws, "log", "--all", "--format=%s"), want) {
			t.Errorf("commit %q missing on the host", want)
		}
	}
}

// TestGitControlFilesProtected: nothing a sandboxed command writes in the
// workspace's .git, a submodule's git directory or a linked worktree's
// directory makes the host's later git run it.
func TestGitControlFilesProtected(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	gitRepoWithSubmodule(t, home, ws)
	evil := filepath.Join(ws, "evil")
	canary := filepath.Join(home, "CANARY")
	s := specFor(t, ws, home, nil)
	// evil is a git directory of the agent's making whose config runs
	// the canary; commondir or gitdir pointing at it would make the host
	// read that config.
	fsmonitor := "[core]\n\tfsmonitor = touch " + canary + "\n"
	for _, c := range []struct{ name, script string }{
		{"commondir", `echo "$1" > .git/commondir`},
		{"config.worktree", `printf '%s' "$2" > .git/config.worktree`},
		{"info attributes", `echo '* filter=x' > .git/info/attributes`},
		{"new hooks dir after rename", `mv .git/hooks .git/h && mkdir .git/hooks`},
		{"submodule config", `printf '%s' "$2" >> .git/modules/sub/config`},
		{"submodule hook", `printf '#!/bin/sh\ntouch CANARY\n' > .git/modules/sub/hooks/post-checkout`},
		{"submodule commondir", `echo "$1" > .git/modules/sub/commondir`},
		{"submodule rename", `mv .git/modules/sub .git/modules/s2 && mkdir .git/modules/sub`},
		{"submodule dot git file", `echo "gitdir: $1" > sub/.git`},
		{"worktree dot git file", `echo "gitdir: $1" > wt/.git`},
		{"worktree commondir", `echo "$1" > .git/worktrees/wt/commondir`},
		{"worktree config", `printf '%s' "$2" > .git/worktrees/wt/config.worktree`},
		{"unknown entry", `mkdir -p .git/branches/x`},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.MkdirAll(evil, 0o755)
			os.WriteFile(filepath.Join(evil, "config"), []byte(fsmonitor), 0o644)
			r := runConfined(t, b, s, runOpts{env: gitEnv}, c.script, evil, fsmonitor)
			if r.code == 0 {
				t.Errorf("write succeeded: %v", r)
			}
			gitHost(t, ws, "status", "--porcelain")
			gitHost(t, filepath.Join(ws, "sub"), "status", "--porcelain")
			gitHost(t, filepath.Join(ws, "wt"), "status", "--porcelain")
			if _, err := os.Stat(canary); err == nil {
				t.Fatal("the host's git ran what the sandbox wrote")
			}
		})
	}
	for _, p := range []string{".git/commondir", ".git/config.worktree", ".git/modules/sub/commondir", ".git/worktrees/wt/config.worktree", ".git/h"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Errorf("%s left on the host", p)
		}
	}
}
