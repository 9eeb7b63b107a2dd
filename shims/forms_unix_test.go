// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package shims

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadScriptFIFO: a FIFO given as the script (sh FIFO) is not read
// and does not block the judge; a regular file is read (the control).
func TestReadScriptFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo, file := filepath.Join(dir, "fifo.sh"), filepath.Join(dir, "x.sh")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("echo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if text, ok := readScript(fifo); ok {
		t.Errorf("a FIFO was read: %q", text)
	}
	if text, ok := readScript(file); !ok || text != "echo hi\n" {
		t.Errorf("the file: %q %v", text, ok)
	}
}
