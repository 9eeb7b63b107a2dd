// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestProtectMounts pins the shapes of protection: existing paths bound
// read-only onto themselves after their ancestors are pinned, missing
// ones replaced by placeholders at the first missing component, and
// nothing invented for a missing .git.
func TestProtectMounts(t *testing.T) {
	t.Parallel()
	const ws = "/home/user/project"
	f := debianFS()
	for p, kind := range map[string]string{
		ws + "/.git/hooks":        "dir",
		ws + "/.git/config":       "file",
		ws + "/.claude":           "dir",
		ws + "/crushrc":           "file",
		ws + "/.codex/nested/dir": "dir",
	} {
		f[p] = kind
		for _, d := range []string{ws + "/.git", ws + "/.codex", ws + "/.codex/nested"} {
			f[d] = "dir"
		}
	}
	s := Spec{Workspace: ws, Home: "/home/user", Protect: []Protected{
		{Path: ws + "/.git/hooks", Dir: true},
		{Path: ws + "/.git/config"},
		{Path: ws + "/.git/info/attributes"},
		{Path: ws + "/.claude", Dir: true},
		{Path: ws + "/crushrc"},
		{Path: ws + "/.vscode", Dir: true},
		{Path: ws + "/.husky/_", Dir: true},
		{Path: ws + "/crushrc/below-a-file"},
		{Path: ws + "/.codex/nested/dir/x.toml"},
	}}
	got, err := protectMounts(s, f)
	if err != nil {
		t.Fatal(err)
	}
	// A missing path in a git directory gets a placeholder; one outside
	// gets a guard (no name on the host that a packer would pack, #31).
	want := []Mount{
		{Bind, ws + "/.git", ws + "/.git"},
		{ROBind, ws + "/.git/hooks", ws + "/.git/hooks"},
		{ROBind, ws + "/.git/config", ws + "/.git/config"},
		{Kind: PlaceholderDir, Dst: ws + "/.git/info"},
		{ROBind, ws + "/.claude", ws + "/.claude"},
		{ROBind, ws + "/crushrc", ws + "/crushrc"},
		{Guard, ws, ws + "/.vscode"},
		{Guard, ws, ws + "/.husky/_"},
		{Guard, ws, ws + "/.codex/nested/dir/x.toml"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("protect mounts:\n got %v\nwant %v", got, want)
	}

	t.Run("state directory keeps placeholders", func(t *testing.T) {
		got, err := protectMountsIn(Spec{Workspace: ws, Home: "/home/user", Protect: []Protected{{Path: ws + "/.vscode", Dir: true}}}, f, false)
		if err != nil {
			t.Fatal(err)
		}
		if want := []Mount{{Kind: PlaceholderDir, Dst: ws + "/.vscode"}}; !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})

	t.Run("no git repository", func(t *testing.T) {
		f := debianFS()
		f[ws] = "dir"
		got, err := protectMounts(Spec{Workspace: ws, Protect: []Protected{{Path: ws + "/.git/hooks", Dir: true}, {Path: ws + "/.envrc"}}}, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := []Mount{{Guard, ws, ws + "/.envrc"}}; !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})

}

// TestProtectMountsDegraded: a workspace of the home directory creates
// no placeholder but those of the home's start-up files.
func TestProtectMountsDegraded(t *testing.T) {
	t.Parallel()
	t.Run("degraded workspace creates nothing", func(t *testing.T) {
		got, err := protectMounts(Spec{Workspace: "/home/user", Home: "/home/user", Protect: []Protected{{Path: "/home/user/.envrc"}}}, debianFS())
		if err != nil || len(got) != 0 {
			t.Errorf("got %v, %v; want nothing", got, err)
		}
	})

	// Escape class 61: the home's start-up files get placeholders even in
	// a degraded workspace; existing ones are bound read-only.
	t.Run("degraded workspace protects the home's start-up files", func(t *testing.T) {
		f := debianFS()
		f["/home/user/.bashrc"] = "file"
		s := Spec{Workspace: "/home/user", Home: "/home/user", Protect: []Protected{
			{Path: "/home/user/.bashrc", Home: true}, {Path: "/home/user/.zshrc", Home: true},
			{Path: "/home/user/.config/autostart", Dir: true, Home: true}}}
		got, err := protectMounts(s, f)
		if err != nil {
			t.Fatal(err)
		}
		want := []Mount{{Bind, "/home/user/.config", "/home/user/.config"}, {ROBind, "/home/user/.bashrc", "/home/user/.bashrc"},
			{Kind: PlaceholderFile, Dst: "/home/user/.zshrc"}, {Kind: PlaceholderDir, Dst: "/home/user/.config/autostart"}}
		if !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
}

// TestProtectedLink: a protected path that is, or lies below, a symbolic
// link in the workspace refuses the sandbox, naming the link (escape
// class 60): a mount cannot pin the link, and its directory is writable.
func TestProtectedLink(t *testing.T) {
	t.Parallel()
	const ws = "/home/user/project"
	for _, c := range []struct {
		name, link, target, protect, wantLink string
	}{
		{"hooks to a directory in the workspace", ws + "/.git/hooks", "../githooks", ws + "/.git/hooks", ".git/hooks"},
		{"claude to a directory outside", ws + "/.claude", "/home/user/dotfiles/claude", ws + "/.claude", ".claude"},
		{"a file to /etc/hosts", ws + "/.mcp.json", "/etc/hosts", ws + "/.mcp.json", ".mcp.json"},
		{"an ancestor", ws + "/.git", "/srv/repo.git", ws + "/.git/hooks", ".git"},
		{"dangling", ws + "/.envrc", "nowhere", ws + "/.envrc", ".envrc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := debianFS()
			f[ws+"/.git"] = "dir"
			f[ws+"/githooks"] = "dir"
			f["/home/user/dotfiles/claude"] = "dir"
			f["/srv/repo.git/hooks"] = "dir"
			f[c.link] = "link:" + c.target
			_, err := protectMounts(Spec{Workspace: ws, Home: "/home/user", Protect: []Protected{{Path: c.protect, Dir: true}}}, f)
			var le *LinkError
			if !errors.As(err, &le) || le.Link != c.wantLink || le.Target != c.target {
				t.Fatalf("err = %v, want a LinkError for %s -> %s", err, c.wantLink, c.target)
			}
			for _, want := range []string{c.wantLink, "symbolic link", "sandbox.unprotect"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q lacks %q", err, want)
				}
			}
		})
	}
	// Positive control: a link elsewhere in the workspace is nobody's
	// business, and the same path as a directory is protected.
	f := debianFS()
	f[ws] = "dir"
	f[ws+"/.git"] = "dir"
	f[ws+"/.git/hooks"] = "dir"
	f[ws+"/docs"] = "link:/usr/share/doc"
	got, err := protectMounts(Spec{Workspace: ws, Protect: []Protected{{Path: ws + "/.git/hooks", Dir: true}}}, f)
	if err != nil || !slices.Contains(got, Mount{ROBind, ws + "/.git/hooks", ws + "/.git/hooks"}) {
		t.Errorf("a directory: got %v, %v", got, err)
	}
}

// TestLayoutWorktree: a linked worktree's common git directory is
// read-only with the parts git writes bound read-write on top, before
// the workspace, and its commondir protected after.
func TestLayoutWorktree(t *testing.T) {
	t.Parallel()
	f := debianFS()
	f["/home/user/main/.git/objects"] = "dir"
	f["/home/user/main/.git/refs"] = "dir"
	f["/home/user/main/.git/worktrees/wt/commondir"] = "file"
	f["/home/user/wt/.git"] = "file"
	for _, d := range []string{"/home/user/wt", "/home/user/main", "/home/user/main/.git", "/home/user/main/.git/worktrees", "/home/user/main/.git/worktrees/wt"} {
		f[d] = "dir"
	}
	s := defaultSpec(t, "/home/user/wt")
	s.Git = gitDirs{
		Common:  "/home/user/main/.git",
		Write:   []string{"/home/user/main/.git/worktrees/wt", "/home/user/main/.git/objects", "/home/user/main/.git/refs", "/home/user/main/.git/logs"},
		Protect: []string{"/home/user/main/.git/worktrees/wt/commondir"},
	}
	s.Protect = append(s.Protect, Protected{Path: "/home/user/wt/.git"})
	ms := mustLayout(t, s, f)
	common := index(ms, Mount{ROBind, "/home/user/main/.git", "/home/user/main/.git"})
	objects := index(ms, Mount{Bind, "/home/user/main/.git/objects", "/home/user/main/.git/objects"})
	wtdir := index(ms, Mount{Bind, "/home/user/main/.git/worktrees/wt", "/home/user/main/.git/worktrees/wt"})
	ws := index(ms, Mount{Bind, "/home/user/wt", "/home/user/wt"})
	dotgit := index(ms, Mount{ROBind, "/home/user/wt/.git", "/home/user/wt/.git"})
	commondir := index(ms, Mount{ROBind, "/home/user/main/.git/worktrees/wt/commondir", "/home/user/main/.git/worktrees/wt/commondir"})
	if !(common >= 0 && common < objects && common < wtdir && wtdir < ws && ws < dotgit && ws < commondir) {
		t.Errorf("order common=%d objects=%d wtdir=%d ws=%d .git=%d commondir=%d in %v", common, objects, wtdir, ws, dotgit, commondir, ms)
	}
	if index(ms, Mount{Bind, "/home/user/main/.git/logs", "/home/user/main/.git/logs"}) >= 0 {
		t.Error("missing logs directory mounted")
	}
	checkGolden(t, "bwrap-worktree.golden", argLines(t, BwrapArgs(ms, s, []string{"/bin/true"})))
	p, err := SeatbeltProfile(s)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "seatbelt-worktree.golden", []byte(p))
}
