// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLandlockPolicy turns layouts into Landlock grants (#28): a
// protected path inside the workspace splits its ancestors into
// read-only directories and grants of their other entries; a mask hides
// its hierarchy (its parent gets no grant of its own); a symlink entry
// gets no grant (its target would be granted); binds elsewhere than
// their source are left out.
func TestLandlockPolicy(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	for _, d := range []string{".git/hooks", ".git/objects", "src", "home/.ssh", "home/proj"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"README", ".git/config", ".git/HEAD"} {
		if err := os.WriteFile(filepath.Join(ws, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	w := func(rel string) string { return filepath.Join(ws, rel) }
	tests := []struct {
		name   string
		ms     []Mount
		ro, rw []string
	}{
		{"plain", []Mount{{Kind: ROBind, Src: "/usr", Dst: "/usr"}, {Kind: Bind, Src: ws, Dst: ws}},
			[]string{"/usr"}, []string{ws, "TMP"}},
		{"protected", []Mount{{Kind: Bind, Src: ws, Dst: ws}, {Kind: ROBind, Src: w(".git/hooks"), Dst: w(".git/hooks")},
			{Kind: RemountRO, Dst: w(".git/config")}, {Kind: PlaceholderFile, Dst: w(".envrc")}, {Kind: RemountRO, Dst: "/"}},
			[]string{ws, w(".git"), w(".git/config"), w(".git/hooks")},
			[]string{w(".git/HEAD"), w(".git/objects"), w("README"), w("home"), w("src"), "TMP"}},
		{"masked", []Mount{{Kind: Bind, Src: w("home"), Dst: w("home")}, {Kind: MaskDir, Dst: w("home/.ssh")}},
			nil, []string{w("home/proj"), "TMP"}},
		{"relocated", []Mount{{Kind: Bind, Src: "/scratch", Dst: w("home")}, {Kind: ROBind, Src: "/copy", Dst: w("README")}},
			nil, []string{"TMP"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ms := append(tt.ms, Mount{Kind: Tmpfs, Dst: "/tmp"})
			got := landlockPolicy(ms, "TMP", NetworkOpen)
			sortStrings := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return slices.Compact(s) }
			if g, want := sortStrings(got.RO), sortStrings(tt.ro); !slices.Equal(g, want) {
				t.Errorf("ro:\n got %s\nwant %s", strings.Join(g, " "), strings.Join(want, " "))
			}
			if g, want := sortStrings(got.RW), sortStrings(tt.rw); !slices.Equal(g, want) {
				t.Errorf("rw:\n got %s\nwant %s", strings.Join(g, " "), strings.Join(want, " "))
			}
			// Only the agent ring's program passes a listener to the launcher.
			if got.Tmpdir != "TMP" || got.Net || got.Broker {
				t.Errorf("tmpdir %q, net %v, broker %v", got.Tmpdir, got.Net, got.Broker)
			}
		})
	}
}

// TestLandlockPolicyNetwork: open leaves TCP alone; off and allow
// restrict it.
func TestLandlockPolicyNetwork(t *testing.T) {
	t.Parallel()
	for net, want := range map[string]bool{NetworkOpen: false, NetworkHost: false, NetworkOff: true, NetworkAllow: true, "": true} {
		if got := landlockPolicy(nil, "T", net).Net; got != want {
			t.Errorf("network %q: Net %v, want %v", net, got, want)
		}
	}
}

// TestLandlockWorkspaceWritable (#28, #31): with the workspace's
// protected paths taken out ([unprotectWorkspace]; the guard holds
// them) the workspace is one read-write grant, so new files can be made
// at its root and in .git; a protected path outside the workspace (a
// linked worktree's common directory) and a mask inside it stay.
func TestLandlockWorkspaceWritable(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws, common := filepath.Join(root, "ws"), filepath.Join(root, "main.git")
	for _, d := range []string{ws + "/.git/hooks", ws + "/secret", ws + "/src", common + "/hooks"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := Spec{Workspace: ws, Protect: []Protected{{Path: ws + "/.git/hooks", Dir: true}, {Path: ws + "/.git/config"}, {Path: ws + "/.envrc"}}}
	ms := []Mount{{Kind: Bind, Src: ws, Dst: ws}, {Kind: Bind, Src: ws + "/.git", Dst: ws + "/.git"},
		{Kind: ROBind, Src: ws + "/.git/hooks", Dst: ws + "/.git/hooks"}, {Kind: RemountRO, Dst: ws + "/.git/config"},
		{Kind: Guard, Src: ws, Dst: ws + "/.envrc"}, {Kind: MaskDir, Dst: ws + "/secret"},
		{Kind: Bind, Src: root, Dst: root}, {Kind: ROBind, Src: common + "/hooks", Dst: common + "/hooks"},
		{Kind: Tmpfs, Dst: "/tmp"}}
	got := landlockPolicy(unprotectWorkspace(s, ms), "TMP", NetworkOpen)
	for _, p := range []string{ws + "/.git", ws + "/.git/hooks", ws + "/.git/config", ws + "/src"} {
		if slices.Contains(got.RO, p) {
			t.Errorf("%s is read-only: %v", p, got.RO)
		}
	}
	if !slices.Contains(got.RO, common+"/hooks") || slices.Contains(got.RW, root) {
		t.Errorf("the common directory's hooks are not read-only: ro %v rw %v", got.RO, got.RW)
	}
	if !slices.Contains(got.RW, ws+"/src") || slices.Contains(got.RW, ws+"/secret") {
		t.Errorf("rw %v: want the workspace's entries, not the masked one", got.RW)
	}
	// Control: without unprotectWorkspace the protected paths split it.
	if ctl := landlockPolicy(ms, "TMP", NetworkOpen); !slices.Contains(ctl.RO, ws+"/.git/hooks") {
		t.Errorf("control: .git/hooks not read-only without it: %v", ctl.RO)
	}
}
