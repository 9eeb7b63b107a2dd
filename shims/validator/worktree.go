// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// idWorktreeOutside refuses `git worktree add PATH` with PATH outside
// the workspace and the user's sandbox.write paths (issue #31): there the
// sandbox is read-only (git fails after recording the worktree) or an
// empty scratch (the home, /tmp: git succeeds, and the new checkout is
// gone when the sandbox ends, leaving a "prunable" worktree and its
// branch). Not a confinement: the OS sandbox already keeps the write
// away; this says so before git does half of it.
const idWorktreeOutside = "git.worktree.outside"

// worktreeValueOpts are the options of git worktree add that take the
// next argument as their value.
var worktreeValueOpts = map[string]bool{"-b": true, "-B": true, "--reason": true}

// gitWorktree checks `git [-C DIR] worktree add [OPTIONS] PATH [COMMIT]`;
// rest is what follows "worktree", dir the directory git runs in.
func (c *checker) gitWorktree(rest []arg, dir string, node syntax.Node) {
	if c.v.env.Unsandboxed || len(rest) == 0 || rest[0].dyn || rest[0].val != "add" {
		return
	}
	var p *arg
	for i := 1; i < len(rest); i++ {
		a := rest[i]
		if !a.dyn && worktreeValueOpts[a.val] {
			i++
			continue
		}
		if !a.dyn && a.val == "--" {
			if i+1 < len(rest) {
				p = &rest[i+1]
			}
			break
		}
		if a.isFlag() {
			continue
		}
		p = &rest[i]
		break
	}
	if p == nil || p.dyn || dir == "" {
		return // a path held in a variable is left to the sandbox
	}
	abs := p.val
	if !path.IsAbs(abs) {
		abs = path.Join(dir, abs)
	}
	abs = path.Clean(abs)
	for _, ok := range append([]string{c.v.env.Workspace}, c.v.write...) {
		if ok != "" && (abs == ok || strings.HasPrefix(abs, strings.TrimSuffix(ok, "/")+"/")) {
			return
		}
	}
	c.deny(idWorktreeOutside, "The new worktree "+abs+" is outside the workspace: in the sandbox that is read-only, or an empty scratch directory (the home, /tmp) whose checkout is gone when the sandbox ends, leaving git a worktree and a branch that point nowhere.",
		"Add the worktree inside the workspace (git worktree add .worktrees/NAME, with .worktrees/ in .gitignore), or ask the user to run it on the host; a person can make the directory writable with sandbox.write in their own config.",
		p.pos(nodePos(node)), node)
}

// gitDir is the directory a git command runs in: its -C options (each
// relative to the one before) applied to the scope's cwd; "" when
// unknown.
func gitDir(args []arg, subIdx int, sc *scope) string {
	dir := ""
	if sc.cwdOK {
		dir = sc.cwd
	}
	for i := 0; i+1 < subIdx; i++ {
		if args[i].dyn || args[i].val != "-C" {
			continue
		}
		i++
		if args[i].dyn {
			return ""
		}
		if v := args[i].val; path.IsAbs(v) {
			dir = path.Clean(v)
		} else if dir != "" {
			dir = path.Join(dir, v)
		}
	}
	return dir
}
