// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestWorktreeOutside (#31): git worktree add with a path outside the
// workspace and sandbox.write is refused before git records a worktree
// that is lost or half made; inside the workspace, in a sandbox.write
// path, without the sandbox, or held in a variable, it is not (the
// controls).
func TestWorktreeOutside(t *testing.T) {
	t.Parallel()
	p := policy.Default()
	p.Sandbox.Write = append(p.Sandbox.Write, "~/trees", "/srv/wt")
	env := Env{Workspace: "/work/ws", Home: "/home/user", Cwd: "/work/ws", Tmpdir: "/tmp"}
	v, err := compile(p, env)
	if err != nil {
		t.Fatal(err)
	}
	off := env
	off.Unsandboxed = true
	vOff, err := compile(p, off)
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{
		"git worktree add ../x":                     "deny " + idWorktreeOutside,
		"git worktree add -b topic ../x":            "deny " + idWorktreeOutside,
		"git worktree add --detach /tmp/x HEAD":     "deny " + idWorktreeOutside,
		"git worktree add ~/x":                      "deny " + idWorktreeOutside,
		"cd sub && git worktree add ../../x":        "deny " + idWorktreeOutside,
		"git -C /srv worktree add x":                "deny " + idWorktreeOutside,
		"git worktree add -- ../x":                  "deny " + idWorktreeOutside,
		"git worktree add .worktrees/x":             "allow",
		"git worktree add -b ../x wt":               "allow", // ../x is the branch
		"cd sub && git worktree add ../x":           "allow",
		"git worktree add ~/trees/x":                "allow",
		"git -C /srv/wt worktree add x":             "allow",
		"git worktree add \"$d\"":                   "allow",
		"git worktree list":                         "allow",
		"git worktree remove ../x":                  "allow",
		"git worktree add --track -b t ../x o/t":    "deny git.repo-config.track",
		"git -C ../other worktree add ../x":         "deny " + idWorktreeOutside,
		"git -C ../other worktree add ../ws/inside": "allow",
	} {
		if r := v.Check(cmd); got(r) != want {
			t.Errorf("%q: got %s, want %s", cmd, got(r), want)
		}
	}
	if r := vOff.Check("git worktree add ../x"); got(r) != "allow" {
		t.Errorf("unsandboxed: got %s, want allow", got(r))
	}
}
