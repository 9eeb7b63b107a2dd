// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// ringFS is goldenFS with shells, a user's agent state and a credential
// file inside a denied directory.
func ringFS() fakeFS {
	f := goldenFS()
	for p, k := range map[string]string{
		"/usr/bin/bash":                      "file",
		"/usr/bin/dash":                      "file",
		"/usr/bin/rbash":                     "link:bash",
		"/usr/bin/busybox":                   "file",
		"/usr/local/bin/ash":                 "link:/usr/bin/busybox",
		"/home/user/.claude":                 "dir",
		"/home/user/.claude/settings.json":   "file",
		"/home/user/.claude.json":            "file",
		"/home/user/.ssh":                    "dir",
		"/home/user/.ssh/id_ed25519":         "file",
		"/home/user/.config/gh":              "dir",
		"/home/user/.config/gh/hosts.yml":    "file",
		"/home/user/.npmrc":                  "file",
		"/home/user/go/pkg/mod":              "dir",
		"/home/user/project":                 "dir",
		"/home/user/project/.git":            "dir",
		"/home/user/project/.git/hooks":      "dir",
		"/home/user/project/.git/config":     "file",
		"/run/user/1000/lite-sandbox/s-1":    "dir",
		"/run/user/1000/lite-sandbox/s-1/pi": "dir",
		"/opt/lite-sandbox":                  "file",
		"/tmp/agent-bin/claude":              "file",
	} {
		f[p] = k
	}
	f["/usr/bin/sh"] = "link:dash"
	return newFakeFS(f)
}

func ringSpec(t *testing.T, ws string) RingSpec {
	t.Helper()
	s := defaultSpec(t, ws)
	sess := "/run/user/1000/lite-sandbox/s-1"
	return RingSpec{
		Command: s,
		Write:   []string{"/home/user/.claude", "/home/user/.claude.json", "/home/user/.cache/claude-cli-nodejs"},
		Guard: []Protected{
			{Path: "/home/user/.claude/settings.json"},
			{Path: "/home/user/.claude/settings.local.json"},
			{Path: "/home/user/.claude/hooks", Dir: true},
		},
		Credentials:  []string{"/home/user/.config/gh/hosts.yml"},
		Hide:         []string{"/run/user/1000/lite-sandbox"},
		Read:         []string{"/opt/lite-sandbox", "/tmp/agent-bin/claude"},
		Tmp:          sess + "/tmp",
		Session:      sess,
		SessionWrite: []string{sess + "/pi"},
		Exe:          "/opt/lite-sandbox",
		Shells:       ShellBinaries(ringFS(), shellDirs, nil),
		HomeScratch:  sess + "/home",
		HomeEntries:  fakeEntries(ringFS(), "/home/user"),
	}
}

// fakeEntries lists the names directly inside dir, as os.ReadDir would.
func fakeEntries(f fakeFS, dir string) []string {
	var out []string
	for p := range f {
		if path.Dir(p) == dir && p != dir {
			out = append(out, path.Base(p))
		}
	}
	slices.Sort(out)
	return out
}

func TestShellBinaries(t *testing.T) {
	got := ShellBinaries(ringFS(), shellDirs, []string{"/usr/bin/tmux", "relative/sh"})
	// /bin/sh, /usr/bin/sh -> dash; rbash -> bash; ash -> busybox is
	// skipped; each real file once.
	want := []string{"/usr/bin/bash", "/usr/bin/dash"}
	if !slices.Equal(got, want) {
		t.Errorf("ShellBinaries = %v, want %v", got, want)
	}
}

func TestRingLayout(t *testing.T) {
	r := ringSpec(t, "/home/user/project")
	ms, err := RingLayout(r, ringFS())
	if err != nil {
		t.Fatal(err)
	}
	has := func(m Mount) int {
		t.Helper()
		i := slices.Index(ms, m)
		if i < 0 {
			t.Errorf("no %v in %v", m, ms)
		}
		return i
	}
	root := has(Mount{ROBind, "/", "/"})
	has(Mount{DevBind, "/dev", "/dev"})
	tmp := has(Mount{Bind, r.Tmp, "/tmp"})
	has(Mount{ROBind, "/tmp/agent-bin/claude", "/tmp/agent-bin/claude"})
	// The scratch home, the real home's entries bound back onto it.
	scratch := has(Mount{Bind, r.HomeScratch, "/home/user"})
	npmrc := has(Mount{ROBind, "/home/user/.npmrc", "/home/user/.npmrc"})
	has(Mount{Symlink, "dotfiles/gnupg", "/home/user/.gnupg"})
	claude := has(Mount{Bind, "/home/user/.claude", "/home/user/.claude"})
	// Caches as in the command sandbox: read-only without a layer.
	has(Mount{ROBind, "/home/user/go/pkg/mod", "/home/user/go/pkg/mod"})
	ws := has(Mount{Bind, "/home/user/project", "/home/user/project"})
	hooks := has(Mount{ROBind, "/home/user/project/.git/hooks", "/home/user/project/.git/hooks"})
	set := has(Mount{ROBind, "/home/user/.claude/settings.json", "/home/user/.claude/settings.json"})
	has(Mount{PlaceholderFile, "", "/home/user/.claude/settings.local.json"})
	has(Mount{PlaceholderDir, "", "/home/user/.claude/hooks"})
	ssh := has(Mount{MaskDir, "", "/home/user/.ssh"})
	has(Mount{MaskFile, "", "/home/user/.npmrc"})
	// The credential is bound inside the gh mask before it turns read-only.
	gh := has(Mount{Tmpfs, "", "/home/user/.config/gh"})
	cred := has(Mount{Bind, "/home/user/.config/gh/hosts.yml", "/home/user/.config/gh/hosts.yml"})
	ghro := has(Mount{RemountRO, "", "/home/user/.config/gh"})
	// The session is read-only inside the hidden runtime root.
	rt := has(Mount{Tmpfs, "", "/run/user/1000/lite-sandbox"})
	sess := has(Mount{ROBind, r.Session, r.Session})
	pi := has(Mount{Bind, r.Session + "/pi", r.Session + "/pi"})
	rtro := has(Mount{RemountRO, "", "/run/user/1000/lite-sandbox"})
	bash := has(Mount{ROBind, "/opt/lite-sandbox", "/usr/bin/bash"})
	has(Mount{ROBind, "/opt/lite-sandbox", "/usr/bin/dash"})
	for _, order := range [][]int{{root, tmp, scratch, npmrc, claude, ws, hooks, set, ssh, bash}, {gh, cred, ghro}, {rt, sess, pi, rtro}} {
		if !slices.IsSorted(order) {
			t.Errorf("mounts out of order (%v): %v", order, ms)
		}
	}
	for _, m := range ms {
		// Write paths and the workspace get their read-write bind only.
		if m.Kind == ROBind && (m.Dst == "/home/user/.claude.json" || m.Dst == "/home/user/.claude" || m.Dst == r.Command.Workspace) {
			t.Errorf("read-only bind under the read-write one: %v", m)
		}
		if m.Kind == Tmpfs && m.Dst == "/home/user" || m.Kind == Proc {
			t.Errorf("the ring must show the host's home and /proc, got %v", m)
		}
	}
}

// TestRingLayoutNoScratch: no scratch layer without a scratch dir, for a
// home of /, and for a workspace that contains the home.
func TestRingLayoutNoScratch(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*RingSpec)
	}{
		{"no scratch dir", func(r *RingSpec) { r.HomeScratch = "" }},
		{"home is /", func(r *RingSpec) { r.Command.Home = "/" }},
		{"workspace is the home", func(r *RingSpec) { r.Command.Workspace = "/home/user" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ringSpec(t, "/home/user/project")
			c.edit(&r)
			ms, err := RingLayout(r, ringFS())
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				if m.Src == r.HomeScratch && r.HomeScratch != "" || m.Dst == "/home/user/.npmrc" && m.Kind == ROBind {
					t.Errorf("scratch home mount %v", m)
				}
			}
		})
	}
	r := ringSpec(t, "/home/user/project")
	r.HomeEntries = append(r.HomeEntries, "../etc")
	if _, err := RingLayout(r, ringFS()); err == nil {
		t.Error("home entry ../etc accepted")
	}
}

// TestRingLayoutLinkedState: state reached through a symlink in the home
// (dotfile managers) stays a symlink in the scratch home, so that the
// read-write bind and the guards land on its target, as they did with
// the host's link under the read-only /. (bwrap resolves a destination's
// absolute link target outside the new root: that fails at start, with
// or without the scratch home; a relative link works.)
func TestRingLayoutLinkedState(t *testing.T) {
	fsys := ringFS()
	for p := range fsys {
		if Within(p, "/home/user/.claude") {
			delete(fsys, p)
		}
	}
	fsys["/home/user/.claude"] = "link:/data/claude"
	fsys["/data"], fsys["/data/claude"], fsys["/data/claude/settings.json"] = "dir", "dir", "file"
	r := ringSpec(t, "/home/user/project")
	r.HomeEntries = fakeEntries(fsys, "/home/user")
	ms, err := RingLayout(r, fsys)
	if err != nil {
		t.Fatal(err)
	}
	link := slices.Index(ms, Mount{Symlink, "/data/claude", "/home/user/.claude"})
	bind := slices.Index(ms, Mount{Bind, "/home/user/.claude", "/home/user/.claude"})
	guard := slices.Index(ms, Mount{ROBind, "/home/user/.claude/settings.json", "/home/user/.claude/settings.json"})
	if link < 0 || bind < link || guard < bind {
		t.Errorf("linked state: symlink %d, bind %d, guard %d in %v", link, bind, guard, ms)
	}
}

func TestRingLayoutRejects(t *testing.T) {
	r := ringSpec(t, "/home/user/project")
	r.SessionWrite = []string{"/home/user/elsewhere"}
	if _, err := RingLayout(r, ringFS()); err == nil || !strings.Contains(err.Error(), "not below the session") {
		t.Errorf("session write outside the session: err = %v", err)
	}
	r = ringSpec(t, "/home/user/project")
	r.Tmp = "tmp"
	if _, err := RingLayout(r, ringFS()); err == nil {
		t.Error("relative tmp accepted")
	}
}

func TestRingGolden(t *testing.T) {
	argv := []string{"/tmp/agent-bin/claude", "--settings", "{\"a\": 1}"}
	for _, ws := range []struct{ name, ws string }{{"default", "/home/user/project"}, {"odd-path", oddWorkspace}} {
		t.Run(ws.name, func(t *testing.T) {
			r := ringSpec(t, ws.ws)
			fsys := ringFS()
			fsys[oddWorkspace] = "dir"
			ms, err := RingLayout(r, fsys)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "ring-bwrap-"+ws.name+".golden", argLines(t, RingBwrapArgs(ms, argv)))
			p, err := RingSeatbeltProfile(r)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "ring-seatbelt-"+ws.name+".golden", []byte(p))
		})
	}
}
