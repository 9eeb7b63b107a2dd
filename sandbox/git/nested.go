// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package git reads git's state in a workspace from its files, without
// running git and without building a mount: what a git directory looks
// like ([IsDir]) and the nested repositories a sandboxed command may
// have made or changed ([Nested], [Changed]), whose config and hooks the
// host's git would run later (escape classes 9 and 10,
// docs/security-model.md §5). It also finds the host's git binaries the
// agent ring binds to the shim (binaries.go: [Copies] by content, and
// [ExecPath], its one git run). What of git's state the sandbox mounts
// and protects is the sandbox package's (gitdir.go, gitglobal.go).
package git

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxNestedWalk bounds the walk of [Nested] in huge workspaces.
const maxNestedWalk = 500_000

// Nested returns the git repositories inside the workspace other
// than its own .git, keyed by their path relative to it, each with a
// fingerprint that changes when what git would read there changes: a
// .git directory or file below the top (git init, clones, gitlinks,
// linked worktrees), and the git directories in .git/modules and
// .git/worktrees. A sandboxed command writes their config and hooks,
// which the host's git runs there later, so a session compares the two
// ends (see [Changed]).
func Nested(ws string) map[string]string {
	out := map[string]string{}
	n := 0
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxNestedWalk {
			return filepath.SkipAll
		}
		if d.Name() != ".git" || p == ws {
			return nil
		}
		rel, _ := filepath.Rel(ws, p)
		if rel == ".git" {
			for _, sub := range []string{"modules", "worktrees"} {
				gitDirsBelow(filepath.Join(p, sub), ws, out, 0)
			}
			return filepath.SkipDir
		}
		out[rel] = gitFingerprint(p)
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// gitDirsBelow adds the git directories below dir.
func gitDirsBelow(dir, ws string, out map[string]string, depth int) {
	ents, err := os.ReadDir(dir)
	if err != nil || depth > MaxDepth {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() {
			continue
		}
		if IsDir(p) || fileExists(filepath.Join(p, "gitdir")) {
			rel, _ := filepath.Rel(ws, p)
			out[rel] = gitFingerprint(p)
			gitDirsBelow(filepath.Join(p, "modules"), ws, out, depth+1)
			continue
		}
		gitDirsBelow(p, ws, out, depth+1)
	}
}

func fileExists(p string) bool { _, err := os.Lstat(p); return err == nil }

// gitFingerprint describes what git reads at a .git file or directory:
// the file's content, or the size and mtime of its config, commondir,
// config.worktree and each hook.
func gitFingerprint(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	if !fi.IsDir() {
		b, _ := os.ReadFile(p)
		return "file:" + string(b)
	}
	var b strings.Builder
	for _, name := range []string{"config", "commondir", "config.worktree", "hooks"} {
		if fi, err := os.Lstat(filepath.Join(p, name)); err == nil {
			fmt.Fprintf(&b, "%s:%d:%d;", name, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	hooks, _ := os.ReadDir(filepath.Join(p, "hooks"))
	for _, h := range hooks {
		if fi, err := h.Info(); err == nil {
			fmt.Fprintf(&b, "hook %s:%d:%d;", h.Name(), fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// Changed returns, sorted, the repositories of after that are not in
// before or whose fingerprint changed.
func Changed(before, after map[string]string) []string {
	var out []string
	for rel, fp := range after {
		if old, ok := before[rel]; !ok || old != fp {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// NestedRisk is the one line that says why a listed repository
// matters.
const NestedRisk = "its config and hooks were written inside the sandbox; git run there on the host (and `git status` in the workspace, for a submodule or gitlink) can run them: inspect or delete it first"

// MaxDepth bounds the walk through nested submodule git directories.
const MaxDepth = 6

// IsDir reports whether dir looks like a git directory.
func IsDir(dir string) bool {
	if fi, err := os.Lstat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, n := range []string{"objects", "commondir"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}
