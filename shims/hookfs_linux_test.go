// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/pathjudge"
)

// TestRootFS: the file hooks' path judge resolves links in the file
// system of the process that ran the hook (rootFS, as /proc/PID/root
// gives it): a link whose absolute target is "/elsewhere" leads to
// root/elsewhere, not to the host's /elsewhere, and a write through it
// is refused; a plain file in the workspace is allowed (the control).
func TestRootFS(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, d := range []string{"ws", "elsewhere"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/elsewhere", filepath.Join(root, "ws", "link")); err != nil {
		t.Fatal(err)
	}
	j := pathjudge.Judge{Spec: sandbox.Spec{Workspace: "/ws", Home: "/home/u"}, FS: rootFS(root)}
	if v := j.Judge(sandbox.Write, "/ws/file", "/ws"); !v.Allowed {
		t.Errorf("control: a write in the workspace: %+v", v)
	}
	if v := j.Judge(sandbox.Write, "link/x", "/ws"); v.Allowed || v.Path != "/elsewhere/x" || !strings.Contains(v.Reason, "outside the workspace") {
		t.Errorf("a write through the root's link: %+v, want refused at /elsewhere/x", v)
	}
}

// TestPeerFS: a known process's file system is its /proc/PID/root; an
// unknown one refuses (fail closed).
func TestPeerFS(t *testing.T) {
	t.Parallel()
	fsys, err := peerFS(os.Getpid())
	if err != nil {
		t.Fatalf("own process: %v", err)
	}
	if _, err := fsys.Lstat("/proc"); err != nil {
		t.Errorf("own root: %v", err)
	}
	for _, pid := range []int{0, -1, 1 << 30} {
		if _, err := peerFS(pid); err == nil {
			t.Errorf("peerFS(%d): no error", pid)
		}
	}
}
