// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
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
		"/home/user/.claude/projects":        "dir",
		"/home/user/.gitconfig":              "file",
		"/usr/bin/git":                       "file",
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
		Read:    []string{"/opt/lite-sandbox", "/tmp/agent-bin/claude", "/home/user/.gitconfig", "/usr/bin/git"},
		Write:   []string{"/home/user/.claude/projects", "/home/user/.claude.json", "/home/user/.cache/claude-cli-nodejs"},
		Layers: []Layer{{Dir: "/home/user/.claude", Scratch: sess + "/state/0",
			Entries: fakeEntries(ringFS(), "/home/user/.claude")}},
		Guard: []Protected{
			{Path: "/home/user/.claude/projects/settings.json"},
			{Path: "/home/user/.claude/agents", Dir: true},
		},
		Credentials:  []string{"/home/user/.config/gh/hosts.yml"},
		Hide:         []string{"/run/user/1000/lite-sandbox"},
		Tmp:          sess + "/tmp",
		Session:      sess,
		SessionWrite: []string{sess + "/pi"},
		Exe:          "/opt/lite-sandbox",
		Shims:        append(ShellBinaries(ringFS(), shellDirs, nil), GitBinaries(ringFS(), shellDirs)...),
		HomeScratch:  sess + "/home",
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
	usr := has(Mount{ROBind, "/usr", "/usr"})
	has(Mount{ROBind, "/etc/passwd", "/etc/passwd"})
	proc := has(Mount{Proc, "", "/proc"})
	has(Mount{Dev, "", "/dev"})
	tmp := has(Mount{Bind, r.Tmp, "/tmp"})
	// The scratch home, with only what the ring grants bound onto it.
	scratch := has(Mount{Bind, r.HomeScratch, "/home/user"})
	bin := has(Mount{ROBind, "/tmp/agent-bin/claude", "/tmp/agent-bin/claude"})
	has(Mount{ROBind, "/home/user/.gitconfig", "/home/user/.gitconfig"})
	layer := has(Mount{Bind, r.Session + "/state/0", "/home/user/.claude"})
	set := has(Mount{ROBind, "/home/user/.claude/settings.json", "/home/user/.claude/settings.json"})
	data := has(Mount{Bind, "/home/user/.claude/projects", "/home/user/.claude/projects"})
	// A missing code-bearing directory of a layer: empty and read-only.
	agentsDir := has(Mount{Tmpfs, "", "/home/user/.claude/agents"})
	agentsRO := has(Mount{RemountRO, "", "/home/user/.claude/agents"})
	if agentsRO < agentsDir {
		t.Errorf("agents/ made read-only before it exists: %v", ms)
	}
	// Caches as in the command sandbox: read-only without a layer.
	has(Mount{ROBind, "/home/user/go/pkg/mod", "/home/user/go/pkg/mod"})
	ws := has(Mount{Bind, "/home/user/project", "/home/user/project"})
	hooks := has(Mount{ROBind, "/home/user/project/.git/hooks", "/home/user/project/.git/hooks"})
	has(Mount{PlaceholderFile, "", "/home/user/.claude/projects/settings.json"})
	// The credential alone is bound: nothing else of ~/.config/gh.
	cred := has(Mount{Bind, "/home/user/.config/gh/hosts.yml", "/home/user/.config/gh/hosts.yml"})
	sess := has(Mount{ROBind, r.Session, r.Session})
	pi := has(Mount{Bind, r.Session + "/pi", r.Session + "/pi"})
	bash := has(Mount{ROBind, "/opt/lite-sandbox", "/usr/bin/bash"})
	has(Mount{ROBind, "/opt/lite-sandbox", "/usr/bin/dash"})
	git := has(Mount{ROBind, "/opt/lite-sandbox", "/usr/bin/git"})
	root := has(Mount{RemountRO, "", "/"})
	for _, order := range [][]int{{usr, proc, tmp, scratch, bin, layer, set, data, ws, hooks, sess, pi, cred, bash, git, root}} {
		if !slices.IsSorted(order) {
			t.Errorf("mounts out of order (%v): %v", order, ms)
		}
	}
	for _, m := range ms {
		// Nothing of the host's root, home, /run or /dev as a whole.
		if m.Src == "/" || m.Src == "/dev" || m.Src == "/proc" || m.Src == "/home/user" || m.Dst == "/run" || m.Kind == DevBind {
			t.Errorf("the ring binds the host's %s: %v", m.Src, m)
		}
		// Secrets and other agents' state are not bound, only masked
		// where a grant would show them.
		for _, secret := range []string{"/home/user/.ssh", "/home/user/.npmrc", "/home/user/.aws", "/etc/shadow", "/home/user/.config"} {
			if (m.Kind == ROBind || m.Kind == Bind) && m.Src == secret {
				t.Errorf("the ring shows %s: %v", secret, m)
			}
		}
		// Write paths and the workspace get their read-write bind only.
		if m.Kind == ROBind && (m.Dst == "/home/user/.claude.json" || m.Dst == "/home/user/.claude/projects" || m.Dst == r.Command.Workspace) {
			t.Errorf("read-only bind under the read-write one: %v", m)
		}
	}
}

// TestRingArgs: the ring has a PID and IPC namespace of its own.
func TestRingArgs(t *testing.T) {
	args := RingBwrapArgs(nil, []string{"agent"})
	for _, want := range []string{"--unshare-pid", "--unshare-ipc", "--die-with-parent"} {
		if !slices.Contains(args, want) {
			t.Errorf("ring args %v lack %s", args, want)
		}
	}
}

// TestRingLayoutNoScratch: an empty home without a scratch dir, none for
// a home of / or for a workspace that contains the home.
func TestRingLayoutNoScratch(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*RingSpec)
		want Mount
	}{
		{"no scratch dir", func(r *RingSpec) { r.HomeScratch = "" }, Mount{Kind: Tmpfs, Dst: "/home/user"}},
		{"home is /", func(r *RingSpec) { r.Command.Home = "/" }, Mount{}},
		{"workspace is the home", func(r *RingSpec) { r.Command.Workspace = "/home/user" }, Mount{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ringSpec(t, "/home/user/project")
			c.edit(&r)
			ms, err := RingLayout(r, ringFS())
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, m := range ms {
				if m.Dst == "/home/user" && m.Kind != Bind {
					found = found || m == c.want
				}
				if r.HomeScratch != "" && m.Src == r.HomeScratch {
					t.Errorf("scratch home mount %v", m)
				}
			}
			if c.want != (Mount{}) && !found {
				t.Errorf("no %v in %v", c.want, ms)
			}
		})
	}
	r := ringSpec(t, "/home/user/project")
	r.Layers[0].Entries = append(r.Layers[0].Entries, "../etc")
	if _, err := RingLayout(r, ringFS()); err == nil {
		t.Error("layer entry ../etc accepted")
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

// TestRingLayoutProtectedLink: the agent ring refuses a protected path
// that is a symbolic link in the workspace, as the command sandbox does
// (escape class 60); the user's unprotect lets it start.
func TestRingLayoutProtectedLink(t *testing.T) {
	f := ringFS()
	delete(f, "/home/user/project/.git/hooks")
	f["/home/user/project/.git/hooks"] = "link:../githooks"
	f["/home/user/project/githooks"] = "dir"
	r := ringSpec(t, "/home/user/project")
	var le *LinkError
	if _, err := RingLayout(r, f); !errors.As(err, &le) || le.Link != ".git/hooks" {
		t.Errorf("err = %v, want a LinkError for .git/hooks", err)
	}
	r.Command.Protect = dropUnprotected(r.Command.Protect, []string{"/home/user/project/.git/hooks"})
	if _, err := RingLayout(r, f); err != nil {
		t.Errorf("unprotected: %v", err)
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
