// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pathjudge

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/fakefs"
)

func judgeSpec() sandbox.Spec {
	return sandbox.Spec{
		Workspace: "/ws",
		Home:      "/home/u",
		Deny:      []string{"/home/u/.ssh", "/home/u/.netrc"},
		Protect: []sandbox.Protected{
			{Path: "/ws/.git/hooks", Dir: true}, {Path: "/ws/.git/config"},
			{Path: "/ws/.claude", Dir: true}, {Path: "/ws/.pi", Dir: true},
		},
	}
}

// TestPathJudge: every refusal names its policy key; links, "..", "~"
// and relative paths are resolved the way the kernel would follow them.
func TestPathJudge(t *testing.T) {
	t.Parallel()
	fsys := fakefs.New(map[string]string{
		"/ws/src/main.go":         "file",
		"/ws/.git/hooks":          "dir",
		"/ws/.git/config":         "file",
		"/ws/link-home":           "link:/home/u",
		"/ws/link-key":            "link:/home/u/.ssh/id_ed25519",
		"/ws/dangling":            "link:/home/u/.config/autostart/x.desktop",
		"/ws/rel-link":            "link:../home/u/.bashrc",
		"/ws/hooks-link":          "link:.git/hooks",
		"/ws/src/up":              "link:..",
		"/ws/loop":                "link:loop",
		"/home/u/.bashrc":         "file",
		"/home/u/.ssh/id_ed25519": "file",
		"/home/u/ws-link":         "link:/ws",
		"/home/u/.config/state":   "dir",
	})
	j := Judge{Spec: judgeSpec(), FS: fsys, AgentWrite: []string{"/home/u/.config/state"}}
	for _, tc := range []struct {
		a        sandbox.Access
		p, cwd   string
		allowed  bool
		key      string // substring of the reason
		resolved string
	}{
		{sandbox.Write, "src/main.go", "/ws", true, "", "/ws/src/main.go"},
		{sandbox.Write, "new/dir/file.go", "/ws/src", true, "", "/ws/src/new/dir/file.go"},
		{sandbox.Write, "/ws/src/../NEW", "", true, "", "/ws/NEW"},
		{sandbox.Write, "~/ws-link/src/x", "", true, "", "/ws/src/x"},
		{sandbox.Write, "~/.bashrc", "/ws", false, "agent.write", "/home/u/.bashrc"},
		{sandbox.Write, "/home/u/.bashrc", "/ws", false, "outside the workspace", "/home/u/.bashrc"},
		{sandbox.Write, "../home/u/.bashrc", "/ws", false, "agent.write", "/home/u/.bashrc"},
		{sandbox.Write, "/ws/../home/u/.profile", "", false, "agent.write", "/home/u/.profile"},
		{sandbox.Write, "link-home/.bashrc", "/ws", false, "agent.write", "/home/u/.bashrc"},
		{sandbox.Write, "rel-link", "/ws", false, "agent.write", "/home/u/.bashrc"},
		{sandbox.Write, "dangling", "/ws", false, "agent.write", "/home/u/.config/autostart/x.desktop"},
		{sandbox.Write, "src/up/../etc/passwd", "/ws", false, "agent.write", "/etc/passwd"},
		{sandbox.Write, ".git/hooks/pre-commit", "/ws", false, "sandbox.protect: .git/hooks", "/ws/.git/hooks/pre-commit"},
		{sandbox.Write, "hooks-link/pre-commit", "/ws", false, "sandbox.protect", "/ws/.git/hooks/pre-commit"},
		{sandbox.Write, "/ws/.git/config", "", false, "sandbox.protect", "/ws/.git/config"},
		{sandbox.Write, ".claude/settings.json", "/ws/src/..", false, "sandbox.protect: .claude", "/ws/.claude/settings.json"},
		{sandbox.Write, ".pi/extensions/x.ts", "/ws", false, "sandbox.protect", "/ws/.pi/extensions/x.ts"},
		{sandbox.Write, ".claudex", "/ws", true, "", "/ws/.claudex"},
		{sandbox.Write, "/home/u/.config/state/db", "", true, "", "/home/u/.config/state/db"},
		{sandbox.Write, "~/.ssh/authorized_keys", "", false, "sandbox.deny", "/home/u/.ssh/authorized_keys"},
		{sandbox.Write, "loop", "/ws", false, "too many levels", ""},
		{sandbox.Write, "~other/x", "/ws", false, "cannot judge", ""},
		{sandbox.Write, "x", "relative", false, "cannot judge", ""},
		{sandbox.Read, "~/.ssh/id_ed25519", "", false, "sandbox.deny", "/home/u/.ssh/id_ed25519"},
		{sandbox.Read, "link-key", "/ws", false, "which leads to /home/u/.ssh/id_ed25519", "/home/u/.ssh/id_ed25519"},
		{sandbox.Read, "/home/u/.sshx", "", true, "", "/home/u/.sshx"},
		{sandbox.Read, "/home/u/.bashrc", "", true, "", "/home/u/.bashrc"},
		{sandbox.Read, ".git/config", "/ws", true, "", "/ws/.git/config"},
		{sandbox.Read, "~/.netrc", "", false, "sandbox.deny", "/home/u/.netrc"},
		{sandbox.Search, "~", "", false, "contains /home/u/.ssh", "/home/u"},
		{sandbox.Search, "/", "", false, "sandbox.deny", "/"},
		{sandbox.Search, "/ws", "", true, "", "/ws"},
		{sandbox.Search, "~/.ssh", "", false, "lies in", "/home/u/.ssh"},
		{sandbox.Read, "", "/ws", false, "empty path", ""},
	} {
		v := j.Judge(tc.a, tc.p, tc.cwd)
		if v.Allowed != tc.allowed || !strings.Contains(v.Reason, tc.key) || (tc.resolved != "" && v.Path != tc.resolved) {
			t.Errorf("%v %q (cwd %q) = %+v, want allowed=%v reason with %q, path %q", tc.a, tc.p, tc.cwd, v, tc.allowed, tc.key, tc.resolved)
		}
		if !v.Allowed && !strings.HasPrefix(v.Reason, "lite-sandbox: ") || strings.Contains(v.Reason, "\n") {
			t.Errorf("%v %q: reason %q is not one lite-sandbox line", tc.a, tc.p, v.Reason)
		}
	}
}

// TestPathJudgeRealFS: the same through the real filesystem (OSFS), so
// the fake's link semantics cannot hide a difference from the kernel.
func TestPathJudgeRealFS(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, ".git", "hooks"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(home, ".ssh", "key"), []byte("k"), 0o600))
	must(os.Symlink(filepath.Join(home, ".ssh", "key"), filepath.Join(ws, "key")))
	must(os.Symlink(filepath.Join(home, ".bashrc"), filepath.Join(ws, "rc"))) // dangling
	must(os.Symlink(".git/hooks", filepath.Join(ws, "h")))
	j := Judge{Spec: sandbox.Spec{Workspace: ws, Home: home, Deny: []string{filepath.Join(home, ".ssh")},
		Protect: []sandbox.Protected{{Path: filepath.Join(ws, ".git", "hooks"), Dir: true}}}}
	for _, tc := range []struct {
		a       sandbox.Access
		p       string
		allowed bool
	}{
		{sandbox.Read, "key", false}, {sandbox.Write, "rc", false}, {sandbox.Write, "h/pre-commit", false},
		{sandbox.Write, "new.txt", true}, {sandbox.Read, "new.txt", true},
	} {
		if v := j.Judge(tc.a, tc.p, ws); v.Allowed != tc.allowed {
			t.Errorf("%v %s = %+v, want allowed=%v", tc.a, tc.p, v, tc.allowed)
		}
	}
}

// FuzzPathJudge: whatever the path, an allowed write lands inside the
// workspace (or agent.write) and outside every protected and denied
// path, and an allowed read is outside every denied path.
func FuzzPathJudge(f *testing.F) {
	for _, s := range []string{"src/a", "../x", "~/.ssh/k", "link-home/../ws/.git/hooks/x", "/ws/./.claude//s", "hooks-link/x", "a/../../home/u/.bashrc", "~", ".", "..", "dangling"} {
		f.Add(s, "/ws")
	}
	fsys := fakefs.New(map[string]string{
		"/ws/src/a": "file", "/ws/link-home": "link:/home/u", "/ws/hooks-link": "link:.git/hooks",
		"/ws/dangling": "link:/home/u/.ssh/new", "/ws/.git/hooks": "dir", "/home/u/.ssh/k": "file",
	})
	j := Judge{Spec: judgeSpec(), FS: fsys}
	f.Fuzz(func(t *testing.T, p, cwd string) {
		for _, a := range []sandbox.Access{sandbox.Read, sandbox.Search, sandbox.Write} {
			v := j.Judge(a, p, cwd)
			if !v.Allowed {
				if v.Reason == "" || strings.Contains(v.Reason, "\n") {
					t.Fatalf("%v %q: refused without a one-line reason: %q", a, p, v.Reason)
				}
				continue
			}
			if !path.IsAbs(v.Path) || path.Clean(v.Path) != v.Path {
				t.Fatalf("%v %q: allowed path %q is not absolute and clean", a, p, v.Path)
			}
			if hostpath.WithinAny(v.Path, j.Spec.Deny) {
				t.Fatalf("%v %q: allowed %q in a denied path", a, p, v.Path)
			}
			if a == sandbox.Write {
				if !hostpath.Within(v.Path, "/ws") {
					t.Fatalf("write %q: allowed %q outside the workspace", p, v.Path)
				}
				for _, pr := range j.Spec.Protect {
					if hostpath.Within(v.Path, pr.Path) {
						t.Fatalf("write %q: allowed %q in protected %s", p, v.Path, pr.Path)
					}
				}
			}
		}
	})
}

// TestJudgeVisible: with the ring's view, a read outside it is refused
// naming agent.read; inside it, and in the workspace, reads pass (the
// control); without a view nothing changes.
func TestJudgeVisible(t *testing.T) {
	fsys := fakefs.New(map[string]string{"/ws": "dir", "/ws/a": "file", "/home/u": "dir", "/home/u/.pgpass": "file", "/home/u/.gitconfig": "file"})
	j := Judge{Spec: sandbox.Spec{Workspace: "/ws", Home: "/home/u"}, Visible: []string{"/usr", "/home/u/.gitconfig"}, FS: fsys}
	for _, c := range []struct {
		p    string
		want bool
	}{{"/ws/a", true}, {"~/.gitconfig", true}, {"/usr/bin/env", true}, {"~/.pgpass", false}, {"/etc/shadow", false}} {
		v := j.Judge(sandbox.Read, c.p, "/ws")
		if v.Allowed != c.want {
			t.Errorf("read %s: allowed %v (%s), want %v", c.p, v.Allowed, v.Reason, c.want)
		}
		if !c.want && !strings.Contains(v.Reason, "agent.read") {
			t.Errorf("read %s: reason %q does not name agent.read", c.p, v.Reason)
		}
	}
	j.Visible = nil
	if v := j.Judge(sandbox.Read, "~/.pgpass", "/ws"); !v.Allowed {
		t.Errorf("without a ring view: %s", v.Reason)
	}
}
