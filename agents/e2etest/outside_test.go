// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutsideWorkspace (#31, finding 7): through the real bubblewrap with
// lite-sandbox run, as root and as nobody. A sibling directory's file
// fails with the tool's error and a lite-sandbox line naming it and the
// way out (control: a file of the workspace is read); git worktree add
// outside the workspace is refused before git records anything
// (control: a worktree inside the workspace is made); a workspace below
// its repository's .git gets a line saying git does not work there
// (control: git status at the repository's root works).
func TestOutsideWorkspace(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		top := filepath.Dir(e.ws)
		e.write("in.txt", "inside\n")
		mustWrite(t, filepath.Join(top, "other", "f"), "sibling\n")
		git(t, e.ws, "init", "-q", ".")
		git(t, e.ws, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "init")

		out, errs, code := e.run(nil, "cat", "in.txt")
		if code != 0 || !strings.Contains(out, "inside") {
			t.Fatalf("control: cat in.txt: exit %d\n%s%s", code, out, errs)
		}
		out, errs, code = e.run(nil, "cat", "../other/f")
		if code == 0 || strings.Contains(out, "sibling") {
			t.Fatalf("the sibling was read in the sandbox: exit %d\n%s", code, out)
		}
		if want := filepath.Join(top, "other", "f") + " exists on the host but is "; !strings.Contains(errs, want) || !strings.Contains(errs, "sandbox.read") {
			t.Errorf("no line naming the sibling and sandbox.read:\n%s", errs)
		}

		// A tool in ~/bin, on the host's PATH: not found in the
		// sandbox (the home is a scratch), with a line naming it and
		// sandbox.tools; the control, the same script in the workspace.
		tool := "#!/bin/sh\necho tool-ran\n"
		mustWrite(t, filepath.Join(e.home, "bin", "h10tool"), tool)
		e.write("h10tool", tool)
		for _, p := range []string{filepath.Join(e.home, "bin", "h10tool"), filepath.Join(e.ws, "h10tool")} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		path := []string{"PATH=" + filepath.Join(e.home, "bin") + ":/usr/local/bin:/usr/bin:/bin"}
		out, errs, code = e.run(path, "h10tool")
		if code != 127 || strings.Contains(out, "tool-ran") {
			t.Errorf("~/bin/h10tool ran in the sandbox: exit %d\n%s", code, out)
		}
		if !strings.Contains(errs, "h10tool is "+filepath.Join(e.home, "bin", "h10tool")+" on the host") || !strings.Contains(errs, "add ~/bin to sandbox.tools") {
			t.Errorf("no line naming ~/bin and sandbox.tools:\n%s", errs)
		}
		if out, errs, code := e.run(path, "./h10tool"); code != 0 || !strings.Contains(out, "tool-ran") {
			t.Errorf("control: ./h10tool: exit %d\n%s%s", code, out, errs)
		}

		_, errs, code = e.run(nil, "git", "worktree", "add", "../x")
		if code != 77 || !strings.Contains(errs, "git.worktree.outside") {
			t.Errorf("git worktree add ../x: exit %d, want 77 with git.worktree.outside\n%s", code, errs)
		}
		if _, err := os.Stat(filepath.Join(e.ws, ".git", "worktrees", "x")); err == nil {
			t.Error("the refused worktree was recorded")
		}
		_, errs, code = e.run(nil, "git", "worktree", "add", "wt")
		if code != 0 {
			t.Errorf("control: git worktree add wt: exit %d\n%s", code, errs)
		}
		if _, err := os.Stat(filepath.Join(e.ws, "wt", ".git")); err != nil {
			t.Errorf("control: the worktree inside the workspace is missing: %v", err)
		}
	})
}

// TestSubdirectoryWorkspace (#31): the workspace is a subdirectory of
// a repository; git fails in the sandbox and the line says why and
// what to do; from the repository's root git works (the control).
func TestSubdirectoryWorkspace(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		git(t, e.ws, "init", "-q", ".")
		e.write("sub/a.txt", "a\n")
		sub := &env{t: e.t, ws: filepath.Join(e.ws, "sub"), home: e.home, vars: e.vars, cred: e.cred}
		out, errs, code := sub.run(nil, "git", "status")
		if code == 0 {
			t.Fatalf("git status in the subdirectory worked (the premise changed): %s", out)
		}
		if !strings.Contains(errs, "subdirectory of the git repository "+e.ws) || !strings.Contains(errs, "start lite-sandbox from the repository's root") {
			t.Errorf("no line for the subdirectory workspace:\n%s", errs)
		}
		if _, errs, code := e.run(nil, "git", "status"); code != 0 {
			t.Errorf("control: git status at the root: exit %d\n%s", code, errs)
		}
	})
}

// TestRootRemovesReadOnlyTree (#31): root without capabilities cannot
// rm -rf a read-only tree in the sandbox (bare root can: the control on
// the host) and gets the line; after chmod -R u+w it can. As nobody the
// same rm fails bare too, and no root line is printed.
func TestRootRemovesReadOnlyTree(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		for _, d := range []string{"t", "bare"} {
			e.write(d+"/a/f", "x\n")
		}
		e.chownTree()
		for _, d := range []string{"t", "bare"} {
			for _, p := range []string{d + "/a", d} {
				if err := os.Chmod(filepath.Join(e.ws, p), 0o555); err != nil {
					t.Fatal(err)
				}
			}
		}
		bare := exec.Command("rm", "-rf", "bare")
		bare.Dir = e.ws
		e.credential(bare)
		bareErr := bare.Run()
		root := e.cred == nil && os.Getuid() == 0
		if root != (bareErr == nil) {
			t.Fatalf("bare rm -rf as root=%v: %v (the premise changed)", root, bareErr)
		}
		_, errs, code := e.run(nil, "rm", "-rf", "t")
		if code == 0 {
			t.Fatal("rm -rf of the read-only tree worked in the sandbox (the premise changed)")
		}
		if has := strings.Contains(errs, "root has no capabilities in the sandbox") && strings.Contains(errs, "chmod -R u+w t"); has != root {
			t.Errorf("root line printed=%v, want %v:\n%s", has, root, errs)
		}
		if _, errs, code := e.run(nil, "sh", "-c", "chmod -R u+w t && rm -rf t"); code != 0 {
			t.Errorf("control: chmod -R u+w then rm -rf: exit %d\n%s", code, errs)
		}
		if _, err := os.Stat(filepath.Join(e.ws, "t")); err == nil {
			t.Error("control: the tree is still there")
		}
	})
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "safe.directory=*"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
