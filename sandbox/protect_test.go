// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"slices"
	"testing"
)

// TestProtectMounts pins the shapes of protection: existing paths bound
// read-only onto themselves after their ancestors are pinned, missing
// ones replaced by placeholders at the first missing component, links
// followed into the workspace, and nothing invented for a missing .git.
func TestProtectMounts(t *testing.T) {
	t.Parallel()
	const ws = "/home/user/project"
	f := debianFS()
	for p, kind := range map[string]string{
		ws + "/.git/hooks":        "dir",
		ws + "/.git/config":       "file",
		ws + "/.claude":           "dir",
		ws + "/.envrc":            "link:config/envrc", // in the workspace
		ws + "/config":            "dir",
		ws + "/.mcp.json":         "link:/etc/hosts", // outside: nothing to do
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
		{Path: ws + "/.envrc"},
		{Path: ws + "/.mcp.json"},
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
	want := []Mount{
		{Bind, ws + "/.git", ws + "/.git"},
		{Bind, ws + "/.codex", ws + "/.codex"},
		{Bind, ws + "/config", ws + "/config"}, // the link's target's parent
		{Bind, ws + "/.codex/nested", ws + "/.codex/nested"},
		{Bind, ws + "/.codex/nested/dir", ws + "/.codex/nested/dir"},
		{ROBind, ws + "/.git/hooks", ws + "/.git/hooks"},
		{ROBind, ws + "/.git/config", ws + "/.git/config"},
		{Kind: PlaceholderDir, Dst: ws + "/.git/info"},
		{ROBind, ws + "/.claude", ws + "/.claude"},
		{ROBind, ws + "/crushrc", ws + "/crushrc"},
		{Kind: PlaceholderDir, Dst: ws + "/.vscode"},
		{Kind: PlaceholderDir, Dst: ws + "/.husky"},
		{Kind: PlaceholderFile, Dst: ws + "/.codex/nested/dir/x.toml"},
		{Kind: PlaceholderFile, Dst: ws + "/config/envrc"}, // through the link
	}
	if !slices.Equal(got, want) {
		t.Errorf("protect mounts:\n got %v\nwant %v", got, want)
	}

	t.Run("no git repository", func(t *testing.T) {
		f := debianFS()
		f[ws] = "dir"
		got, err := protectMounts(Spec{Workspace: ws, Protect: []Protected{{Path: ws + "/.git/hooks", Dir: true}, {Path: ws + "/.envrc"}}}, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := []Mount{{Kind: PlaceholderFile, Dst: ws + "/.envrc"}}; !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})

	t.Run("degraded workspace creates nothing", func(t *testing.T) {
		got, err := protectMounts(Spec{Workspace: "/home/user", Home: "/home/user", Protect: []Protected{{Path: "/home/user/.envrc"}}}, debianFS())
		if err != nil || len(got) != 0 {
			t.Errorf("got %v, %v; want nothing", got, err)
		}
	})
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
