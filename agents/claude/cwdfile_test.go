// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package claude

import (
	"os"
	"testing"
)

// TestOpenCwdFile: only a claude-*-cwd file directly in the agent's temp
// dir is opened (the control), never one elsewhere or of another name.
func TestOpenCwdFile(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	f, err := New().OpenCwdFile(dir+"/claude-1a2b-cwd", dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, bad := range []string{other + "/claude-1a2b-cwd", dir + "/notclaude", "claude-1a2b-cwd", dir + "/sub/claude-x-cwd"} {
		if f, err := openCwdFile(bad, dir); err == nil {
			f.Close()
			t.Errorf("%s opened", bad)
		}
	}
	// Outside a session: CLAUDE_CODE_TMPDIR.
	f, err = New().OpenCwdFile(other+"/claude-9-cwd", "", func(k string) string {
		if k == "CLAUDE_CODE_TMPDIR" {
			return other
		}
		return ""
	})
	if err != nil {
		t.Fatalf("CLAUDE_CODE_TMPDIR: %v", err)
	}
	f.Close()
}

// TestOpenCwdFileLink: a link in the cwd file's place is not followed.
func TestOpenCwdFileLink(t *testing.T) {
	dir := t.TempDir()
	target := t.TempDir() + "/target"
	if err := os.Symlink(target, dir+"/claude-link-cwd"); err != nil {
		t.Fatal(err)
	}
	if f, err := openCwdFile(dir+"/claude-link-cwd", dir); err == nil {
		f.Close()
		t.Fatal("a link was followed")
	}
	if _, err := os.Lstat(target); err == nil {
		t.Fatal("the link's target was created")
	}
}
