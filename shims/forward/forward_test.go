// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package forward

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		argv0              string
		shell, git, isShim bool
	}{
		{"sh", true, false, true},
		{"/usr/bin/bash", true, false, true},
		{"/run/s-1/bin/bash", true, false, true},
		{"git", false, true, true},
		{"/usr/bin/git", false, true, true},
		{"/usr/local/bin/git", false, true, true},
		{"lite-sandbox-shim", false, false, true},
		// git's exec path holds git under dashed names: bound to the
		// shim in the ring, they stand for git SUB (#25, class 59).
		{"git-upload-pack", false, true, true},
		{"/usr/lib/git-core/git-receive-pack", false, true, true},
		// Positive controls: other programs are not the shim.
		{"git-", false, false, false},
		{"gitk", false, false, false},
		{"lite-sandbox", false, false, false},
		{"python3", false, false, false},
	} {
		if got := IsShellName(tc.argv0); got != tc.shell {
			t.Errorf("IsShellName(%q) = %v, want %v", tc.argv0, got, tc.shell)
		}
		if got := IsGitName(tc.argv0); got != tc.git {
			t.Errorf("IsGitName(%q) = %v, want %v", tc.argv0, got, tc.git)
		}
		if got := IsShimName(tc.argv0); got != tc.isShim {
			t.Errorf("IsShimName(%q) = %v, want %v", tc.argv0, got, tc.isShim)
		}
	}
}

// TestRealGit: outside a session the shim under git's name runs the real
// git, never itself (the agent ring binds it over the host's git), and
// never one from a relative PATH entry.
func TestRealGit(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	selfDir, realDir, relDir := filepath.Join(d, "self"), filepath.Join(d, "real"), "rel"
	for _, dir := range []string{selfDir, realDir, filepath.Join(d, relDir)} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The shim bound over git: the same file as this binary.
	if err := os.Link(self, filepath.Join(selfDir, "git")); err != nil {
		if err := os.Symlink(self, filepath.Join(selfDir, "git")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(realDir, "git"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, relDir, "git"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(d)
	for _, tc := range []struct {
		path, want string
	}{
		{selfDir + ":" + realDir, filepath.Join(realDir, "git")},
		{relDir + ":" + realDir, filepath.Join(realDir, "git")},
		{realDir + ":" + selfDir, filepath.Join(realDir, "git")}, // positive control: the first real one
		{selfDir, ""},
		{relDir, ""},
	} {
		got, err := RealGit(tc.path)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "not found") {
				t.Errorf("RealGit(%q) = %q, %v; want not found", tc.path, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("RealGit(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}

// TestRunFailsClosed: a shim whose session has no judge runs nothing.
func TestRunFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string
		want string
	}{
		{"relative", func(*testing.T) string { return "s-1" }, "not an absolute path"},
		{"not private", func(t *testing.T) string {
			d := t.TempDir()
			os.Chmod(d, 0o755)
			return d
		}, "nothing ran"},
		{"no judge", func(t *testing.T) string {
			d := t.TempDir()
			os.Chmod(d, 0o700)
			return d
		}, "judge is not running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			marker := filepath.Join(t.TempDir(), "ran")
			code := Run(tc.dir(t), []string{"bash", "-c", "touch " + marker}, &b, testStart)
			if code == 0 || !strings.Contains(b.String(), tc.want) {
				t.Errorf("Run = %d, %q; want a failure saying %q", code, b.String(), tc.want)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the command ran")
			}
		})
	}
}
