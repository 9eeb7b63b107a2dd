// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxNestedWalk bounds the walk of [NestedGitDirs] in huge workspaces.
const maxNestedWalk = 500_000

// NestedGitDirs returns the git repositories inside the workspace other
// than its own .git, keyed by their path relative to it, each with a
// fingerprint that changes when what git would read there changes: a
// .git directory or file below the top (git init, clones, gitlinks,
// linked worktrees), and the git directories in .git/modules and
// .git/worktrees. A sandboxed command writes their config and hooks,
// which the host's git runs there later, so a session compares the two
// ends (see [NewGitDirs]).
func NestedGitDirs(ws string) map[string]string {
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
	if err != nil || depth > maxGitDepth {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() {
			continue
		}
		if isGitDir(p) || fileExists(filepath.Join(p, "gitdir")) {
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

// NewGitDirs returns, sorted, the repositories of after that are not in
// before or whose fingerprint changed.
func NewGitDirs(before, after map[string]string) []string {
	var out []string
	for rel, fp := range after {
		if old, ok := before[rel]; !ok || old != fp {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// NestedGitRisk is the one line that says why a listed repository
// matters.
const NestedGitRisk = "its config and hooks were written inside the sandbox; git run there on the host (and `git status` in the workspace, for a submodule or gitlink) can run them: inspect or delete it first"
