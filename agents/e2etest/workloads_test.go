// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The workloads of issue #31's "Done when", run bare on the host, under
// `lite-sandbox run` and in a session (`launch exec`), each from the same
// seed: a Go module's tests with the user's `go env -w` settings
// (GOPRIVATE, a file:// GOPROXY in the workspace: nothing leaves the
// machine), a hand-written `configure && make check` with exported
// CFLAGS, a git session under the user's identity and global hooks
// directory (commits, a branch, a linked worktree in the workspace, a
// rebase, a submodule), and `npm install` from a registry on 127.0.0.1
// named by ~/.npmrc (its port granted by sandbox.host_ports), whose
// `prepare` script enables hooks as husky does.

// workloadScript is run in the repository's root. Commit dates are
// fixed, so that every commit, tree and ref is the same wherever it
// ran.
const workloadScript = `export GIT_AUTHOR_DATE=2020-01-01T00:00:00Z GIT_COMMITTER_DATE=2020-01-01T00:00:00Z
mkdir -p out
st() { echo "$1=$2" >> out/status; }
go env GOPRIVATE GONOPROXY > out/goenv
(cd go && go test -count=1 ./... > ../out/gotest 2>&1); st gotest $?
(cd c && ./configure > ../out/configure && make -s check > ../out/check 2>&1); st check $?
git add -A && git commit -q -m one; st one $?
git switch -q -c topic && echo t > t.txt && git add t.txt && git commit -q -m two; st two $?
git switch -q master && echo m > m.txt && git add m.txt && git commit -q -m three; st three $?
git worktree add -q wt -b wtb; st worktree $?
(cd wt && echo w > w.txt && git add w.txt && git commit -q -m four); st four $?
git rebase -q master topic; st rebase $?
git switch -q master; st back $?
git submodule update --init 2> out/submodule.err; st submodule $?
(cd npm && npm install --no-audit --no-fund --no-update-notifier > ../out/npm 2>&1); st npm $?
echo workload-done`

// workloadFiles is the seed of the workspace (besides .git, the
// submodule's source and the module proxy, which workloadSeed makes).
var workloadFiles = map[string]string{
	".gitignore":     "/out/\n/.gocache/\n/.proxy/\n/.subsrc/\n/wt/\nhook-marker\n/c/answer\n/c/check.out\n/c/config.mk\n/npm/node_modules/\n/npm/package-lock.json\n",
	".gitmodules":    "[submodule \"lib\"]\n\tpath = lib\n\turl = ./.subsrc/lib\n",
	"go/go.mod":      "module corp.example/app\n\ngo 1.21\n\nrequire corp.example/dep v1.0.0\n",
	"go/app.go":      "// Package app uses the private dependency.\npackage app\n\nimport \"corp.example/dep\"\n\n// Answer is the dependency's.\nconst Answer = dep.Answer\n",
	"go/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestAnswer(t *testing.T) {\n\tif Answer != 42 {\n\t\tt.Fatal(Answer)\n\t}\n}\n",
	// A configure that records the compiler and flags it was given,
	// as autoconf's does in its output files.
	"c/configure": "#!/bin/sh\n: \"${CC:=cc}\"\nprintf 'CC = %s\\nCFLAGS = %s\\n' \"$CC\" \"$CFLAGS\" > config.mk\necho \"configured: CC=$CC CFLAGS=$CFLAGS\"\n",
	"c/Makefile":  "include config.mk\n\ncheck: answer\n\t./answer > check.out\n\tgrep -qx 'answer=42' check.out\n\t@echo check-passed\n\nanswer: answer.c\n\t$(CC) $(CFLAGS) -o answer answer.c\n",
	"c/answer.c":  "#include <stdio.h>\nint main(void) { printf(\"answer=%d\\n\", ANSWER); return 0; }\n",
	"npm/package.json": `{"name":"app","version":"1.0.0","scripts":{"prepare":"node husky.js"},` +
		`"dependencies":{"lite-sandbox-issue31-dep":"^1.0.0"}}`,
	// As husky does (husky 9's index.js): enable the hooks directory,
	// print git's error when it fails, exit 0 all the same.
	"npm/husky.js": "const r = require('child_process').spawnSync('git', ['config', 'core.hooksPath', '.husky/_'], {encoding: 'utf8'});\n" +
		"if (r.status) console.log('husky - ' + r.stderr);\n",
}

// TestWorkloadsSameAsBare (issue #31, "Done when"): the workloads give
// the same statuses and the same artifacts bare, under `run` and in a
// session, as root and as nobody, but for the configuration writes the
// sandbox refuses (its line is asserted, the host's .git/config
// unchanged, and what the line says to run on the host makes the rest
// work).
func TestWorkloadsSameAsBare(t *testing.T) {
	t.Parallel()
	tools := map[string]string{}
	for _, tool := range []string{"go", "npm", "node", "make", "cc", "git"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s is not installed", tool)
		}
		tools[tool] = p
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		e.setPath(filepath.Dir(tools["go"]))
		e.setPath(filepath.Dir(tools["npm"]))
		reg := newFakeRegistry(t, "lite-sandbox-issue31-dep")
		workloadHome(t, e, tools["go"], reg.url)
		// GOCACHE in the workspace, shared by the three: only the bare
		// run compiles the standard library cold (minutes on a loaded
		// machine); the per-workspace cache layers are tested by
		// TestToolchainCaches.
		vars := []string{"CC=cc", "CFLAGS=-DANSWER=42 -O1", "GOCACHE=" + filepath.Join(e.ws, ".gocache")}
		bare := filepath.Join(filepath.Dir(e.ws), "bare")
		want := e.workloadRun(t, "bare", bare, vars)
		for _, where := range []string{"run", "session"} {
			got := e.workloadRun(t, where, e.ws, vars)
			for _, k := range sortedKeys(want) {
				if got[k] != want[k] {
					t.Errorf("%s: %s differs from bare:\n%s\nbare:\n%s", where, k, got[k], want[k])
				}
			}
		}
	})
}

// workloadHome writes the user's settings as the user would: a global
// git configuration (identity, a global hooks directory with a
// pre-commit hook, file submodules allowed), ~/.npmrc naming the
// registry, and go env -w run on the host.
func workloadHome(t *testing.T, e *env, goBin, registry string) {
	t.Helper()
	e.write("~/.gitconfig", "[user]\n\tname = Ada User\n\temail = ada@home.example\n[core]\n\thooksPath = ~/.githooks\n"+
		"[protocol \"file\"]\n\tallow = always\n[init]\n\tdefaultBranch = master\n")
	e.write("~/.githooks/pre-commit", "#!/bin/sh\necho ran >> hook-marker\n")
	if err := os.Chmod(filepath.Join(e.home, ".githooks", "pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write("~/.npmrc", "registry="+registry+"/\n")
	// The registry is on the host's loopback, which network = "open"
	// (the default) keeps out unless the user grants its port (#27,
	// docs/egress.md "Grants under open"), as a user of a local
	// registry does.
	u, err := url.Parse(registry)
	if err != nil {
		t.Fatal(err)
	}
	e.write("~/.config/lite-sandbox/config.toml", "[sandbox]\nhost_ports = ["+u.Port()+"]\n")
	e.chownTree()
	cmd := exec.Command(goBin, "env", "-w", "GOPRIVATE=corp.example", "GONOPROXY=none", "GOFLAGS=-mod=mod -modcacherw",
		"GOTOOLCHAIN=local", "GOPROXY=file://"+filepath.Join(e.ws, ".proxy"))
	cmd.Dir, cmd.Env = e.home, e.vars
	e.credential(cmd)
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go env -w: %v\n%s", err, o)
	}
}

// workloadSeed empties dir (but for the shared GOCACHE) and writes the
// seed: the files, the module proxy, the submodule's source repository
// and the repository with one commit holding .gitmodules and the
// submodule's gitlink, not registered in .git/config (as after a clone).
func (e *env) workloadSeed(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, d := range ents {
		if d.Name() != ".gocache" {
			if err := os.RemoveAll(filepath.Join(dir, d.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, content := range workloadFiles {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		mode := os.FileMode(0o644)
		if name == "c/configure" {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	// The proxy is named by GOPROXY (the workspace's, for bare too).
	writeModule(t, filepath.Join(e.ws, ".proxy"), "corp.example/dep", "package dep\n\nconst Answer = 42\n")
	lib := filepath.Join(dir, ".subsrc", "lib")
	os.MkdirAll(lib, 0o755)
	// The submodule's empty directory, as a clone leaves it.
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	os.WriteFile(filepath.Join(lib, "f"), []byte("from the submodule\n"), 0o644)
	seedGit(t, lib, "init", "-q", "-b", "master")
	seedGit(t, lib, "add", "f")
	seedGit(t, lib, "commit", "-q", "-m", "lib")
	head := strings.TrimSpace(seedGit(t, lib, "rev-parse", "HEAD"))
	seedGit(t, dir, "init", "-q", "-b", "master")
	seedGit(t, dir, "add", ".gitignore", ".gitmodules")
	seedGit(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",lib")
	seedGit(t, dir, "commit", "-q", "-m", "zero")
	e.chownTree()
}

// seedGit runs git on the host in dir, without any user configuration,
// with fixed dates and identity.
func seedGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Seed", "GIT_AUTHOR_EMAIL=seed@example.com", "GIT_COMMITTER_NAME=Seed", "GIT_COMMITTER_EMAIL=seed@example.com",
		"GIT_AUTHOR_DATE=2020-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2020-01-01T00:00:00Z",
		"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*",
		"GIT_CONFIG_KEY_1=protocol.file.allow", "GIT_CONFIG_VALUE_1=always"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}

// bareRun runs script in dir on the host as e's user with e's
// environment and vars, with a deadline, and returns its output and
// status.
func (e *env) bareRun(t *testing.T, dir string, vars []string, script string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", script)
	cmd.Dir, cmd.Env = dir, append(append([]string{}, e.vars...), vars...)
	e.credential(cmd)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("bare: timed out\n%s", out)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
