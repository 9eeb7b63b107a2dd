// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// defaultSpec is the default policy's spec for a workspace on debianFS.
func defaultSpec(t *testing.T, workspace string) Spec {
	t.Helper()
	s, err := NewSpec(defaultGrants(t), workspace, "/home/user", "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// defaultGrants are the [sandbox] lists of the embedded default policy,
// read from its file: this package may not import the policy package
// (which imports it), even in its own tests.
func defaultGrants(t *testing.T) Grants {
	t.Helper()
	b, err := os.ReadFile("../shims/policy/default.toml")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Sandbox Grants `toml:"sandbox"`
	}
	if err := toml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Sandbox.System) == 0 || len(f.Sandbox.Protect) == 0 {
		t.Fatalf("default.toml: no sandbox lists read: %+v", f.Sandbox)
	}
	return f.Sandbox
}

func index(ms []Mount, m Mount) int { return slices.Index(ms, m) }

func mustLayout(t *testing.T, s Spec, f FS) []Mount {
	t.Helper()
	ms, err := Layout(s, f)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestLayoutDefault(t *testing.T) {
	t.Parallel()
	ms := mustLayout(t, defaultSpec(t, "/home/user/project"), debianFS())
	want := []Mount{
		{ROBind, "/usr", "/usr"},
		{Symlink, "usr/bin", "/bin"},
		{Symlink, "usr/lib", "/lib"},
		{Symlink, "usr/lib64", "/lib64"},
		{Symlink, "usr/sbin", "/sbin"},
		{ROBind, "/opt", "/opt"},
	}
	if !slices.Equal(ms[:len(want)], want) {
		t.Errorf("system mounts:\n got %v\nwant %v", ms[:len(want)], want)
	}
	for _, m := range ms {
		switch {
		case strings.Contains(m.Dst, "lib32"):
			t.Errorf("missing /lib32 mounted: %v", m)
		case m.Dst == "/etc/shadow" || m.Dst == "/etc/gitconfig":
			t.Errorf("%s mounted: %v", m.Dst, m)
		case m.Dst == "/home/user" && m.Kind == Tmpfs:
			// The home directory is an empty tmpfs.
		case m.Dst == "/home/user" || strings.HasPrefix(m.Dst, "/home/user/.") || (m.Dst == "/" && m.Kind != RemountRO):
			t.Errorf("home or root mounted: %v", m)
		case m.Kind == MaskDir || m.Kind == MaskFile:
			t.Errorf("mask for a path that is not mounted: %v", m)
		}
	}
	// Symlinked /etc entries are bound through; bwrap follows them.
	for _, m := range []Mount{
		{ROBind, "/etc/localtime", "/etc/localtime"},
		{ROBind, "/etc/os-release", "/etc/os-release"},
		{ROBind, "/etc/default/locale", "/etc/default/locale"},
		{ROBind, "/etc/ssl", "/etc/ssl"},
	} {
		if index(ms, m) < 0 {
			t.Errorf("missing %v", m)
		}
	}
	// Order: /etc, then fresh /proc, /dev, /tmp, then the workspace last.
	etc := index(ms, Mount{ROBind, "/etc/passwd", "/etc/passwd"})
	proc := index(ms, Mount{Kind: Proc, Dst: "/proc"})
	dev := index(ms, Mount{Kind: Dev, Dst: "/dev"})
	tmp := index(ms, Mount{Kind: Tmpfs, Dst: "/tmp"})
	ws := index(ms, Mount{Bind, "/home/user/project", "/home/user/project"})
	// After the workspace only what lies inside it (protected paths and
	// their placeholders) and the final remount.
	for _, m := range ms[ws+1 : len(ms)-1] {
		if !strings.HasPrefix(m.Dst, "/home/user/project/") {
			t.Errorf("mount after the workspace outside it: %v", m)
		}
	}
	if !(0 < etc && etc < proc && proc < dev && dev < tmp && tmp < ws && ws < len(ms)-1) {
		t.Errorf("order etc=%d proc=%d dev=%d tmp=%d ws=%d of %d", etc, proc, dev, tmp, ws, len(ms))
	}
	// The writable tmpfs root is remounted read-only, last.
	if ms[len(ms)-1] != (Mount{Kind: RemountRO, Dst: "/"}) {
		t.Errorf("last mount is %v, want remount-ro /", ms[len(ms)-1])
	}
}

func TestLayoutSymlinkTargetNotMounted(t *testing.T) {
	t.Parallel()
	s := defaultSpec(t, "/home/user/project")
	s.System = []string{"/bin", "/opt"} // /usr not mounted: /bin must be bound
	ms := mustLayout(t, s, debianFS())
	if index(ms, Mount{ROBind, "/bin", "/bin"}) < 0 {
		t.Errorf("/bin not bound through: %v", ms)
	}
}

func TestLayoutGrants(t *testing.T) {
	t.Parallel()
	f := debianFS()
	f["/home/user/.cargo"] = "dir"
	f["/home/user/.cache"] = "dir"
	s := defaultSpec(t, "/tmp/ws")
	s.Read = []string{"/home/user/.cargo", "/home/user/.rustup"} // .rustup is missing
	s.Write = []string{"/home/user/.cache"}
	ms := mustLayout(t, s, f)
	r := index(ms, Mount{ROBind, "/home/user/.cargo", "/home/user/.cargo"})
	w := index(ms, Mount{Bind, "/home/user/.cache", "/home/user/.cache"})
	tmp := index(ms, Mount{Kind: Tmpfs, Dst: "/tmp"})
	ws := index(ms, Mount{Bind, "/tmp/ws", "/tmp/ws"})
	if !(tmp < r && r < w && w < ws) {
		t.Errorf("order tmp=%d read=%d write=%d ws=%d: %v", tmp, r, w, ws, ms)
	}
	for _, m := range ms {
		if strings.Contains(m.Dst, ".rustup") {
			t.Errorf("missing grant mounted: %v", m)
		}
	}
}

func TestLayoutDenyMasks(t *testing.T) {
	t.Parallel()
	// The workspace is the home directory (degraded): the deny list must
	// still hide credentials, by kind, after every bind.
	s := defaultSpec(t, "/home/user")
	ms := mustLayout(t, s, debianFS())
	ws := index(ms, Mount{Bind, "/home/user", "/home/user"})
	var masks []Mount
	for _, m := range ms[ws+1 : len(ms)-1] {
		if m.Kind == MaskDir || m.Kind == MaskFile {
			masks = append(masks, m)
		}
	}
	want := []Mount{
		{Kind: MaskDir, Dst: "/home/user/.ssh"},
		{Kind: MaskDir, Dst: "/home/user/dotfiles/gnupg"}, // ~/.gnupg is a symlink
		{Kind: MaskDir, Dst: "/home/user/.aws"},
		{Kind: MaskDir, Dst: "/home/user/.config/gh"},
		{Kind: MaskFile, Dst: "/home/user/.netrc"},
	}
	for _, m := range want {
		if index(masks, m) < 0 {
			t.Errorf("missing mask %v in %v", m, masks)
		}
	}
	if len(masks) != len(want) {
		t.Errorf("masks = %v, want exactly %v", masks, want)
	}
}

func TestLayoutDenyThroughSymlinks(t *testing.T) {
	t.Parallel()
	// Fedora Silverblue: /home -> var/home. The workspace is bound at the
	// path the user gave; its masks must be at that path too, not at the
	// real /var/home path, which does not exist inside.
	f := newFakeFS(map[string]string{
		"/usr/bin/sh":              "file",
		"/home":                    "link:var/home",
		"/var/home/u/.ssh/id_rsa":  "file",
		"/var/home/u/project/a":    "file",
		"/srv/cache":               "link:/var/cache/shared",
		"/var/cache/shared/secret": "file",
	})
	s := Spec{
		Workspace: "/home/u",
		Home:      "/home/u",
		System:    []string{"/usr"},
		Read:      []string{"/srv/cache"},
		Deny:      []string{"/home/u/.ssh", "/var/cache/shared/secret", "/home/u/.aws"},
		Network:   NetworkOpen,
	}
	ms := mustLayout(t, s, f)
	for _, m := range []Mount{
		{Kind: MaskDir, Dst: "/home/u/.ssh"},
		{Kind: MaskFile, Dst: "/srv/cache/secret"},
	} {
		if index(ms, m) < 0 {
			t.Errorf("missing %v in %v", m, ms)
		}
	}
	for _, m := range ms {
		if strings.HasPrefix(m.Dst, "/var/") || strings.Contains(m.Dst, ".aws") {
			t.Errorf("mask at a path that is not visible: %v", m)
		}
	}
}

func TestLayoutDenyHiddenByLaterMount(t *testing.T) {
	t.Parallel()
	f := newFakeFS(map[string]string{
		"/data/ws/.env":  "file",
		"/data/other/.x": "file",
	})
	s := Spec{
		Workspace: "/data/ws",
		Read:      []string{"/data"},
		Deny:      []string{"/data/ws/.env", "/data/other/.x"},
	}
	ms := mustLayout(t, s, f)
	var masks []Mount
	for _, m := range ms {
		if m.Kind == MaskFile || m.Kind == MaskDir {
			masks = append(masks, m)
		}
	}
	want := []Mount{{Kind: MaskFile, Dst: "/data/ws/.env"}, {Kind: MaskFile, Dst: "/data/other/.x"}}
	if !slices.Equal(masks, want) {
		t.Errorf("masks = %v, want %v", masks, want)
	}
}

func TestLayoutRootWorkspace(t *testing.T) {
	t.Parallel()
	// A degraded workspace of / brings the host's /proc and /dev along;
	// fresh ones must be mounted again on top (escape class 7).
	ms := mustLayout(t, defaultSpec(t, "/"), debianFS())
	ws := index(ms, Mount{Bind, "/", "/"})
	if ws < 0 {
		t.Fatalf("no workspace bind: %v", ms)
	}
	rest := ms[ws+1:]
	if index(rest, Mount{Kind: Proc, Dst: "/proc"}) < 0 || index(rest, Mount{Kind: Dev, Dst: "/dev"}) < 0 {
		t.Errorf("no fresh /proc and /dev after the / bind: %v", rest)
	}
	if index(rest, Mount{Kind: MaskDir, Dst: "/home/user/.ssh"}) < 0 {
		t.Errorf("~/.ssh not masked: %v", rest)
	}
	// The workspace is the mount at /: remounting / would make it
	// read-only.
	if index(ms, Mount{Kind: RemountRO, Dst: "/"}) >= 0 {
		t.Errorf("workspace / remounted read-only: %v", ms)
	}
}

func TestLayoutErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		s    Spec
		want string
	}{
		{"missing workspace", Spec{Workspace: "/nope"}, "workspace"},
		{"file workspace", Spec{Workspace: "/etc/passwd"}, "not a directory"},
		{"relative workspace", Spec{Workspace: "w"}, "not an absolute path"},
		{"unclean workspace", Spec{Workspace: "/tmp/ws/"}, "not a clean path"},
		{"relative read", Spec{Workspace: "/tmp/ws", Read: []string{"x"}}, "read path"},
		{"unclean deny", Spec{Workspace: "/tmp/ws", Deny: []string{"/a/../b"}}, "deny path"},
		{"etc escape", Spec{Workspace: "/tmp/ws", Etc: []string{"../root"}}, "leaves /etc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Layout(c.s, debianFS())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestMountKindString(t *testing.T) {
	t.Parallel()
	if ROBind.String() != "ro-bind" || RemountRO.String() != "remount-ro" || MountKind(99).String() != "MountKind(99)" || MountKind(0).String() != "MountKind(0)" {
		t.Error("MountKind.String")
	}
	if s := (Mount{Symlink, "usr/bin", "/bin"}).String(); s != "symlink usr/bin /bin" {
		t.Errorf("Mount.String = %q", s)
	}
}
