// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The lines the sandbox prints for the configuration writes a program
// made inside (the host's .git/config is read-only there, escape
// classes 9, 11): husky's, and git submodule--helper's under `git
// submodule update --init` of a submodule the host has not registered.
const (
	huskyLine     = `"git config core.hooksPath .husky/_", run by this command, could not write .git/config, which is read-only in the sandbox`
	submoduleLine = `"git submodule update --init", run by this command, could not write .git/config, which is read-only in the sandbox`
)

// workloadRun seeds dir, runs the workloads there (bare, run or
// session), checks what differs by design (the writes of .git/config),
// follows the way out the sandbox's line names, and returns the
// artifacts to compare with bare.
func (e *env) workloadRun(t *testing.T, where, dir string, vars []string) map[string]string {
	t.Helper()
	e.workloadSeed(t, dir)
	seedConfig := inDir(dir, ".git/config")
	var out, errs string
	var code int
	switch where {
	case "bare":
		out, code = e.bareRun(t, dir, vars, workloadScript)
	case "run":
		out, errs, code = e.run(vars, "sh", "-c", workloadScript)
	default:
		out, errs, code = e.launch("exec", vars, "/bin/sh", "-c", workloadScript)
	}
	status := inDir(dir, "out/status")
	if code != 0 || !strings.Contains(out, "workload-done") {
		t.Fatalf("%s: exit %d, status %q\nstdout:\n%s\nstderr:\n%s\nnpm:\n%s", where, code, status, out, errs, inDir(dir, "out/npm"))
	}
	cfg := inDir(dir, ".git/config")
	if where == "bare" {
		// The controls: bare, husky and the submodule do write the
		// repository's configuration.
		if !strings.Contains(status, "submodule=0\n") || !strings.Contains(cfg, "hooksPath = .husky/_") || !strings.Contains(cfg, `[submodule "lib"]`) {
			t.Fatalf("bare: status %q, .git/config:\n%s\n%s", status, cfg, out)
		}
	} else {
		if strings.Contains(status, "submodule=0\n") || !strings.Contains(errs, submoduleLine) || !strings.Contains(errs, huskyLine) {
			t.Errorf("%s: status %q, want the submodule refused and both lines\nstderr:\n%s", where, status, errs)
		}
		if cfg != seedConfig {
			t.Errorf("%s: the host's .git/config changed:\n%s", where, cfg)
		}
		// The way out the line names: the user registers the
		// submodule on the host; `git submodule update` then works
		// inside.
		seedGit(t, dir, "submodule", "init")
		e.chownTree()
		if where == "run" {
			out, errs, code = e.run(nil, "git", "submodule", "update")
		} else {
			out, errs, code = e.launch("exec", nil, "/bin/sh", "-c", "git submodule update")
		}
		if code != 0 {
			t.Errorf("%s: git submodule update after the host's init: exit %d\n%s\n%s", where, code, out, errs)
		}
	}
	return workloadArtifacts(t, dir)
}

// goTestOut matches what differs by design in go test's output: the
// timing, and "go: downloading" when the module cache already holds the
// module (the session runs after `run` in the same workspace, whose
// module cache layer it shares).
var goTestOut = regexp.MustCompile(`\t[0-9.]+s|go: downloading [^\n]*\n`)

// workloadArtifacts returns what the workloads left in dir, by name, in
// forms that do not differ by design: the go test timing and downloads, the linked
// worktree's absolute path, the submodule's line in the statuses (the
// sandbox refuses it, asserted by workloadRun) and .git/config (husky's
// and the submodule's writes, bare only) are left out; the npm output
// too (husky's error in the sandbox). Commits have fixed dates, so
// their hashes are compared.
func workloadArtifacts(t *testing.T, dir string) map[string]string {
	t.Helper()
	var status []string
	for _, l := range strings.SplitAfter(inDir(dir, "out/status"), "\n") {
		if !strings.HasPrefix(l, "submodule=") {
			status = append(status, l)
		}
	}
	a := map[string]string{
		"statuses":      strings.Join(status, ""),
		"go env":        inDir(dir, "out/goenv"),
		"go test":       goTestOut.ReplaceAllString(inDir(dir, "out/gotest"), ""),
		"go.sum":        inDir(dir, "go/go.sum"),
		"configure":     inDir(dir, "out/configure"),
		"make check":    inDir(dir, "out/check"),
		"config.mk":     inDir(dir, "c/config.mk"),
		"check.out":     inDir(dir, "c/check.out"),
		"c binary":      sha([]byte(inDir(dir, "c/answer"))),
		"hook runs":     inDir(dir, "hook-marker") + "|" + inDir(dir, "wt/hook-marker"),
		"lockfile":      inDir(dir, "npm/package-lock.json"),
		"installed dep": inDir(dir, "npm/node_modules/lite-sandbox-issue31-dep/package.json"),
		"submodule":     inDir(dir, "lib/f"),
		"refs":          seedGit(t, dir, "for-each-ref", "--format=%(refname) %(objectname)"),
		"log":           seedGit(t, dir, "log", "--all", "--format=%H %T %an <%ae> %cn <%ce> %s"),
		"git status":    seedGit(t, dir, "status", "--porcelain"),
		"sub status":    seedGit(t, dir, "submodule", "status"),
		"worktrees":     strings.ReplaceAll(seedGit(t, dir, "worktree", "list", "--porcelain"), dir, "DIR"),
		"files":         fileList(t, dir),
	}
	if !strings.Contains(a["go test"], "ok  \tcorp.example/app") || !strings.Contains(a["make check"], "check-passed") ||
		!strings.Contains(a["config.mk"], "CFLAGS = -DANSWER=42 -O1") || a["go env"] != "corp.example\nnone\n" {
		t.Errorf("%s: the workloads did not run as set up: %q", dir, a)
	}
	if a["hook runs"] != "ran\nran\nran\n|ran\n" || a["submodule"] != "from the submodule\n" {
		t.Errorf("%s: hooks %q, submodule %q", dir, a["hook runs"], a["submodule"])
	}
	return a
}

// fileList lists dir's files and directories (what a tar of it would
// hold), but for .git, the shared GOCACHE, the modules' and packages'
// caches and the outputs.
func fileList(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if slices.Contains([]string{".git", ".gocache", ".proxy"}, rel) || d.Name() == ".git" && d.IsDir() {
			return filepath.SkipDir
		}
		names = append(names, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return strings.Join(names, "\n")
}

// inDir reads dir/rel, "" when it is missing.
func inDir(dir, rel string) string {
	b, _ := os.ReadFile(filepath.Join(dir, rel))
	return string(b)
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
