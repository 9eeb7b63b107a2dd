// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"bytes"
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestMain lets the test binary act as lite-sandbox's confinement entry
// point inside the sandbox, so that these tests run commands exactly as
// the shim and the session worker do: bwrap, then `__confine`, then the
// command.
func TestMain(m *testing.M) {
	if code, ok := hostprobe.Main(); ok {
		os.Exit(code)
	}
	if confine.IsCommand(os.Args) {
		// Both backends' forms: `-- PROGRAM` and `--landlock JSON -- PROGRAM`.
		code, err := confine.Run(os.Args[2:], os.Environ())
		os.Stderr.WriteString("confine: " + err.Error() + "\n")
		os.Exit(code)
	}
	if len(os.Args) >= 2 && os.Args[1] == gocacheprog.Command {
		// The Go build cache program (Spec.GoCacheProg), as lite-sandbox.
		if err := gocacheprog.Main(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	if ws := os.Getenv("LITE_SANDBOX_TEST_HOLD"); ws != "" {
		holdSandbox(ws)
	}
	os.Exit(m.Run())
}

// runOpts are the extras of runConfined.
type runOpts struct {
	stdin *os.File
	env   []string
	// dir is the command's working directory: the Landlock backend has
	// no --chdir, its caller starts the command where it is to run (as
	// the shim and the worker do); "" is the spec's Cwd there.
	dir string
}

// runConfined runs /bin/sh -c script through Prepare and the test
// binary's __confine, with the host's environment plus o.env.
func runConfined(t *testing.T, b sandbox.Backend, s sandbox.Spec, o runOpts, script string, args ...string) result {
	t.Helper()
	r, _ := runConfinedQ(t, b, s, o, script, args...)
	return r
}

// runConfinedQ is runConfined that also returns what the guard moved
// away (sandbox.Prepared.Quarantined).
func runConfinedQ(t *testing.T, b sandbox.Backend, s sandbox.Spec, o runOpts, script string, args ...string) (result, []sandbox.Quarantined) {
	t.Helper()
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.Read = append(s.Read, exe)
	argv := append([]string{"/bin/sh", "-c", script, "sh"}, args...)
	p, err := sandbox.Prepare(b, s, confine.Argv(exe, argv))
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if b.Name == sandbox.BackendLandlock && o.dir == "" {
		o.dir = cmp.Or(s.Cwd, s.Workspace)
	}
	r := runPrepared(t, p, o)
	p.Done()
	return r, p.Quarantined()
}

// gitHost runs git on the host in dir and returns its trimmed output.
func gitHost(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

var gitEnv = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1"}

// newRepo creates a git repository with one commit in dir.
func newRepo(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitHost(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "src", "main.c"), []byte("int main(){}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitHost(t, dir, "add", ".")
	gitHost(t, dir, "commit", "-q", "-m", "init")
}

// guardedCases are the cases of TestProtectedPaths whose protected path
// is missing at the start: no placeholder stands in for it outside .git
// (#31), so the write may succeed inside, and the guard moves what it
// made away (the path it must report).
var guardedCases = map[string]string{"envrc absent": ".envrc", "envrc via symlink": ".envrc", "codex absent": ".codex",
	"vscode tasks": ".vscode", "mcp json": ".mcp.json", "devcontainer single file": ".devcontainer.json",
	"project npmrc": ".npmrc", "yarnrc": ".yarnrc.yml", "pre-commit config": ".pre-commit-config.yaml",
	"mise": "mise.toml", "project policy": ".lite-sandbox.toml"}

// TestProtectedPaths checks escape classes 9 to 15 through the real
// sandbox: each write must fail and leave the host unchanged, whatever
// its spelling.
func TestProtectedPaths(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	newRepo(t, ws)
	cfg := filepath.Join(ws, ".git", "config")
	cfgBefore, _ := os.ReadFile(cfg)
	if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := specFor(t, ws, home, nil)

	for _, c := range []struct {
		name   string
		script string
		absent []string // host paths that must not exist afterwards
	}{
		{"hook", `printf '#!/bin/sh\ntouch CANARY\n' > .git/hooks/pre-commit`, []string{".git/hooks/pre-commit"}},
		{"config directly", `echo '[core] fsmonitor = touch CANARY' >> .git/config`, nil},
		{"git config", `git config core.fsmonitor 'touch CANARY'`, nil},
		{"rename .git", `mv .git .g && mkdir -p .git/hooks && echo x > .git/hooks/pre-commit`, []string{".g", ".git/hooks/pre-commit"}},
		{"rename hooks", `mv .git/hooks .git/h2 && mkdir .git/hooks && echo x > .git/hooks/pre-commit`, []string{".git/h2", ".git/hooks/pre-commit"}},
		{"envrc absent", `touch .envrc`, []string{".envrc"}},
		{"envrc via symlink", `ln -sf .envrc e && echo x > e`, []string{".envrc"}},
		{"claude settings", `echo '{"hooks":{}}' > .claude/settings.json`, []string{".claude/settings.json"}},
		{"claude rename", `mv .claude .c && mkdir .claude && echo x > .claude/settings.json`, []string{".c", ".claude/settings.json"}},
		{"codex absent", `mkdir -p .codex && echo x > .codex/config.toml`, []string{".codex/config.toml"}},
		{"vscode tasks", `mkdir -p .vscode && echo '{}' > .vscode/tasks.json`, []string{".vscode/tasks.json"}},
		{"mcp json", `echo '{}' > .mcp.json`, []string{".mcp.json"}},
		{"devcontainer single file", `echo '{"initializeCommand":"touch CANARY"}' > .devcontainer.json`, []string{".devcontainer.json"}},
		{"project npmrc", `echo 'script-shell=./evil' > .npmrc`, []string{".npmrc"}},
		{"yarnrc", `echo 'yarnPath: evil.js' > .yarnrc.yml`, []string{".yarnrc.yml"}},
		{"pre-commit config", `printf 'repos: []\n' > .pre-commit-config.yaml`, []string{".pre-commit-config.yaml"}},
		{"mise", `echo '[hooks]' > mise.toml`, []string{"mise.toml"}},
		{"project policy", `echo 'version = 1' > .lite-sandbox.toml`, []string{".lite-sandbox.toml"}},
		{"hooks through a symlink", `ln -s .git/hooks h && echo x > h/pre-commit`, []string{".git/hooks/pre-commit"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, moved := runConfinedQ(t, b, base, runOpts{env: gitEnv}, c.script)
			if g := guardedCases[c.name]; g != "" {
				checkQuarantined(t, moved, filepath.Join(ws, g))
			} else if r.code == 0 {
				t.Errorf("protected write succeeded: %v", r)
			}
			if got, _ := os.ReadFile(cfg); !bytes.Equal(got, cfgBefore) {
				t.Errorf(".git/config changed:\n%s", got)
				os.WriteFile(cfg, cfgBefore, 0o644)
			}
			for _, a := range c.absent {
				if _, err := os.Lstat(filepath.Join(ws, a)); err == nil {
					t.Errorf("%s exists on the host", a)
				}
			}
			if _, err := os.Stat(filepath.Join(ws, ".git", "HEAD")); err != nil {
				t.Errorf(".git damaged: %v", err)
			}
			os.Remove(filepath.Join(ws, "e"))
			os.Remove(filepath.Join(ws, "h"))
		})
	}

	t.Run("hooksPath target protected although absent", func(t *testing.T) {
		gitHost(t, ws, "config", "core.hooksPath", ".husky/_")
		cfgBefore, _ = os.ReadFile(cfg)
		defer gitHost(t, ws, "config", "--unset", "core.hooksPath")
		_, moved := runConfinedQ(t, b, base, runOpts{}, `mkdir -p .husky/_ && echo x > .husky/_/pre-commit`)
		checkQuarantined(t, moved, filepath.Join(ws, ".husky/_"))
		if _, err := os.Lstat(filepath.Join(ws, ".husky/_/pre-commit")); err == nil {
			t.Error(".husky/_/pre-commit exists on the host")
		}
	})

	t.Run("real work still works", func(t *testing.T) { protectedRealWork(t, b, ws, base) })

	t.Run("placeholders removed afterwards", func(t *testing.T) { protectedPlaceholdersGone(t, ws) })
}

// checkQuarantined fails unless the guard reported p moved to a
// quarantine outside the workspace, where it now is.
func checkQuarantined(t *testing.T, moved []sandbox.Quarantined, p string) {
	t.Helper()
	for _, q := range moved {
		if q.Path != p {
			continue
		}
		if _, err := os.Lstat(q.To); err != nil || q.To == "" {
			t.Errorf("%s quarantined at %q: %v", p, q.To, err)
		}
		return
	}
	t.Errorf("%s not reported as quarantined: %v", p, moved)
}

// protectedPlaceholdersGone is TestProtectedPaths/placeholders removed afterwards.
func protectedPlaceholdersGone(t *testing.T, ws string) {
	for _, p := range []string{".envrc", ".mcp.json", ".vscode", ".codex", ".gitmodules", "crush.json"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Errorf("placeholder %s left in the workspace", p)
		}
	}
}

// protectedRealWork is TestProtectedPaths/real work still works.
func protectedRealWork(t *testing.T, b sandbox.Backend, ws string, base sandbox.Spec) {
	r := runConfined(t, b, base, runOpts{env: gitEnv}, `
		set -e
		echo 'int x;' >> src/main.c
		git commit -q -am edit
		git checkout -q -b topic
		cd src && echo 'int y;' >> main.c && git commit -q -am 'from a subdirectory'
		git status --porcelain`)
	if r.code != 0 {
		t.Fatalf("edit and commit failed: %v", r)
	}
	if strings.TrimSpace(r.stdout) != "" {
		t.Errorf("placeholders visible to git inside: %q", r.stdout)
	}
	if log := gitHost(t, ws, "log", "--format=%s", "topic"); !strings.HasPrefix(log, "from a subdirectory\nedit\n") {
		t.Errorf("host log:\n%s", log)
	}
}

// TestLinkedWorktree: the workspace is a linked worktree whose main
// repository lies outside it; commits, branches and fetches work, the
// main repository's config and hooks stay read-only.
func TestLinkedWorktree(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, _ := fakeHome(t)
	main := filepath.Join(home, "main")
	newRepo(t, main)
	ws := filepath.Join(home, "wt")
	gitHost(t, main, "worktree", "add", "-q", "-b", "feature", ws)
	remote := filepath.Join(ws, "remote.git")
	gitHost(t, main, "clone", "-q", "--bare", main, remote)
	cfgBefore, _ := os.ReadFile(filepath.Join(main, ".git", "config"))
	base := specFor(t, ws, home, nil)

	r := runConfined(t, b, base, runOpts{env: gitEnv}, `
		set -e
		echo 'int z;' >> src/main.c
		git commit -q -am 'in the worktree'
		cd src && echo 'int w;' >> main.c && git commit -q -am 'worktree subdirectory' && cd ..
		git branch side
		git fetch -q "$PWD/remote.git" main
		git status --porcelain`)
	if r.code != 0 {
		t.Fatalf("git in the linked worktree failed: %v", r)
	}
	if log := gitHost(t, main, "log", "--format=%s", "feature"); !strings.HasPrefix(log, "worktree subdirectory\nin the worktree\n") {
		t.Errorf("main repository's log of feature:\n%s", log)
	}
	if got := gitHost(t, main, "branch", "--list", "side"); !strings.Contains(got, "side") {
		t.Errorf("branch side missing: %q", got)
	}

	for _, c := range []struct{ name, script string }{
		{"main config", `git config core.fsmonitor 'touch CANARY'`},
		{"main config directly", `echo x >> "$1/.git/config"`},
		{"main hooks", `echo x > "$1/.git/hooks/pre-commit"`},
		{"dot git file", `echo "gitdir: /tmp/evil" > .git`},
		{"commondir", `echo /tmp/evil > "$1/.git/worktrees/wt/commondir"`},
		{"worktree config absent", `echo '[core]' > "$1/.git/worktrees/wt/config.worktree"`},
		{"main commondir absent", `echo /tmp/evil > "$1/.git/commondir"`},
		{"other worktrees", `mkdir "$1/.git/worktrees/x"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runConfined(t, b, base, runOpts{env: gitEnv}, c.script, main)
			if r.code == 0 {
				t.Errorf("write succeeded: %v", r)
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(main, ".git", "config")); !bytes.Equal(got, cfgBefore) {
		t.Errorf("main .git/config changed:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(main, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("a hook appeared in the main repository")
	}
	for _, p := range []string{".git/worktrees/wt/config.worktree", ".git/commondir", ".git/worktrees/x"} {
		if _, err := os.Lstat(filepath.Join(main, p)); err == nil {
			t.Errorf("%s left in the main repository", p)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(ws, ".git")); !strings.HasPrefix(string(data), "gitdir: "+main) {
		t.Errorf("worktree .git file changed: %q", data)
	}
}

// TestToolchainCaches: caches under the home directory are writable
// through the workspace's layer (the host's stay unchanged),
// credentials next to them are not readable, and the rest of the home
// directory is an empty scratch directory.
func TestToolchainCaches(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	for _, d := range []string{".cache/go-build", ".npm", ".cargo/bin", ".cargo/registry", "go/pkg/mod"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{
		".npmrc":                  "//registry.npmjs.org/:_authToken=" + secretCanary + "\n",
		".cargo/credentials.toml": "[registry]\ntoken = \"" + secretCanary + "\"\n",
		"main.go":                 "",
	} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base := specFor(t, ws, home, nil)
	env := []string{"HOME=" + home, "GOCACHE=", "GOFLAGS=", "GOPATH=", "GOMODCACHE=", "GOTOOLCHAIN=local",
		"npm_config_cache=", "NPM_CONFIG_CACHE=", "npm_config_userconfig=", "npm_config_update_notifier=false"}

	t.Run("credentials unreadable", func(t *testing.T) {
		r := runConfined(t, b, base, runOpts{env: env}, `cat ~/.npmrc; cat ~/.cargo/credentials.toml; ls -A ~/.cargo; cat ~/main.go && echo HOMEVISIBLE`)
		if strings.Contains(r.stdout+r.stderr, secretCanary) || strings.Contains(r.stdout, "HOMEVISIBLE") {
			t.Errorf("secret or home visible: %v", r)
		}
		if !strings.Contains(r.stdout, "registry") {
			t.Errorf("~/.cargo (a tool directory) not mounted: %v", r)
		}
	})

	t.Run("home is a scratch directory", func(t *testing.T) {
		r := runConfined(t, b, base, runOpts{env: env}, `mkdir -p ~/.config/x && echo y > ~/.config/x/f && cat ~/.config/x/f`)
		if r.code != 0 || r.stdout != "y\n" {
			t.Errorf("home not writable inside: %v", r)
		}
		if _, err := os.Stat(filepath.Join(home, ".config/x")); err == nil {
			t.Error("a write in the sandbox's home reached the host")
		}
	})

	t.Run("go build writes its cache", func(t *testing.T) { cachesGoBuild(t, b, home, ws, base, env) })

	t.Run("npm install writes its cache", func(t *testing.T) {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm not installed")
		}
		dep := filepath.Join(ws, "dep")
		os.MkdirAll(dep, 0o755)
		os.WriteFile(filepath.Join(dep, "package.json"), []byte(`{"name":"dep","version":"1.0.0"}`), 0o644)
		os.WriteFile(filepath.Join(ws, "package.json"), []byte(`{"name":"app","version":"1.0.0","dependencies":{"dep":"file:dep"}}`), 0o644)
		r := runConfined(t, b, base, runOpts{env: env}, `npm install --offline --no-audit --no-fund --loglevel=info && test -e node_modules/dep/package.json && echo INSTALLED`)
		if r.code != 0 || !strings.Contains(r.stdout, "INSTALLED") {
			t.Fatalf("npm install: %v", r)
		}
		if ents, _ := os.ReadDir(filepath.Join(home, ".npm")); len(ents) != 0 {
			t.Error("the sandbox wrote the host's ~/.npm")
		}
		if ents, _ := os.ReadDir(filepath.Join(sandbox.CacheLayerDir(home, ws), ".npm")); len(ents) == 0 {
			t.Error("the workspace's npm layer stayed empty")
		}
	})
}

// TestPlaceholdersLastOneCleans: placeholders are mount points of every
// sandbox of the workspace, so only the last sandbox to finish removes
// them (removing one under a running sandbox would detach its
// protection), and only while they are still empty.
func TestPlaceholdersLastOneCleans(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	// Placeholders are made in git directories only (#31).
	newRepo(t, ws)
	s, err := policy.Default().SandboxSpec(ws, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	b := sandbox.Backend{Name: "bwrap", Path: "/usr/bin/bwrap"}
	argv := []string{"/bin/true"}
	first, err := sandbox.Prepare(b, s, argv)
	if err != nil {
		t.Fatal(err)
	}
	second, err := sandbox.Prepare(b, s, argv)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Placeholders) == 0 {
		t.Fatal("no placeholders in a repository's .git")
	}
	// Prepare created them on the host, for bwrap to mount on.
	for _, p := range first.Placeholders {
		if _, err := os.Lstat(p); err != nil {
			t.Fatalf("placeholder %s not created: %v", p, err)
		}
	}
	filled := first.Placeholders[0]
	// The user puts content where a placeholder stands (placeholders are
	// read-only: as root the mode is no obstacle, as a user it is).
	if fi, _ := os.Lstat(filled); fi.IsDir() {
		os.Chmod(filled, 0o755)
		filled = filepath.Join(filled, "user-file")
	} else {
		os.Chmod(filled, 0o644)
	}
	first.Done()
	for _, p := range first.Placeholders {
		if _, err := os.Lstat(p); err != nil {
			t.Fatalf("%s removed while another sandbox of the workspace runs", p)
		}
	}
	if err := os.WriteFile(filled, []byte("user data"), 0o644); err != nil {
		t.Fatal(err)
	}
	second.Done()
	for _, p := range first.Placeholders {
		_, err := os.Lstat(p)
		switch {
		case (p == filled || p == filepath.Dir(filled)) && err != nil:
			t.Errorf("%s had content and was removed", p)
		case p != filled && p != filepath.Dir(filled) && err == nil:
			t.Errorf("%s left behind by the last sandbox", p)
		}
	}
}

// TestPlaceholdersHiddenFromGit: inside the sandbox git does not list the
// placeholders, so an agent's `git add -A` cannot commit them, also in a
// repository made without git's templates (no .git/info/exclude).
func TestPlaceholdersHiddenFromGit(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	ws := t.TempDir()
	if out, err := exec.Command(git, "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	os.Remove(filepath.Join(ws, ".git", "info", "exclude"))
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := policy.Default().SandboxSpec(ws, t.TempDir(), ws)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sandbox.Prepare(b, s, []string{git, "status", "--porcelain", "--untracked-files=all"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(p.Path, p.Args[1:]...).CombinedOutput()
	p.Done()
	if err != nil {
		t.Fatalf("git status: %v %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "?? main.go" {
		t.Errorf("git status inside the sandbox = %q, want only the real file", got)
	}
	if fi, err := os.Stat(filepath.Join(ws, ".git", "info", "exclude")); err != nil || fi.Size() != 0 || fi.Mode().Perm() != 0o644 {
		t.Errorf("host .git/info/exclude: %v %v", fi, err)
	}
}
