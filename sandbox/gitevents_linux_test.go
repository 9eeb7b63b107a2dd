// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestOpenGitEvents: the events file lies in a directory the sandbox
// writes, so only a regular file is read: a symbolic link (to a host
// file the sandbox cannot see) is not followed, a FIFO is not waited on.
func TestOpenGitEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	for name, make := range map[string]func(p string) error{
		"regular": func(p string) error { return os.WriteFile(p, []byte("{}\n"), 0o600) },
		"symlink": func(p string) error { return os.Symlink(secret, p) },
		"fifo":    func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		if err := os.WriteFile(secret, []byte("secret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := make(p); err != nil {
			t.Fatal(err)
		}
		f, err := OpenGitEvents(p)
		if f != nil {
			f.Close()
		}
		if (err == nil) != (name == "regular") {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

// TestGitEventsMount: the events directory is bound read-write at
// itself after /tmp's tmpfs (it may lie under /tmp), and only when it is
// a directory.
func TestGitEventsMount(t *testing.T) {
	t.Parallel()
	ws, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		events string
		want   bool
	}{{dir, true}, {file, false}, {"", false}} {
		ms, err := Layout(Spec{Workspace: ws, GitEvents: tc.events, Network: NetworkOff}, OSFS{})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(ms, Mount{Kind: Bind, Src: tc.events, Dst: tc.events})
		if (i >= 0) != tc.want {
			t.Errorf("GitEvents %q: bound %v, want %v", tc.events, i >= 0, tc.want)
		}
		if tmp := slices.Index(ms, Mount{Kind: Tmpfs, Dst: "/tmp"}); i >= 0 && (tmp < 0 || tmp > i) {
			t.Errorf("the events bind (%d) comes before /tmp's tmpfs (%d)", i, tmp)
		}
	}
}
