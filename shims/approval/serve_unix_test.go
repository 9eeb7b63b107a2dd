// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package approval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSocket: List and Send reach a session's broker through its socket
// (private directory), and the socket is gone after Close.
func TestSocket(t *testing.T) {
	root := t.TempDir()
	b := New(Options{Session: "s-1", Wait: time.Minute})
	s, err := Listen(root, "s-1", b)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, DirName)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v", fi.Mode(), err)
	}
	done := make(chan Answer, 1)
	go func() { done <- b.Decide(context.Background(), q, 1, nil) }()
	var qs []Question
	for deadline := time.Now().Add(10 * time.Second); len(qs) == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if qs, err = List(root); err != nil {
			t.Fatal(err)
		}
	}
	if len(qs) != 1 || qs[0].Rule != q.Rule {
		t.Fatalf("List = %+v", qs)
	}
	if err := Send(root, "nope", Once); !errors.Is(err, ErrUnknown) {
		t.Errorf("Send to an unknown id: %v", err)
	}
	if err := Send(root, qs[0].ID, Once); err != nil {
		t.Fatal(err)
	}
	if a := <-done; !a.Yes() || a.How != ByApprove {
		t.Errorf("answer %+v", a)
	}
	s.Close()
	if _, err := os.Stat(SocketPath(root, "s-1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left after Close: %v", err)
	}
}
