// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package procstat

import (
	"os"
	"syscall"
	"testing"
	"time"
)

func TestParent(t *testing.T) {
	t.Parallel()
	if got := Parent(os.Getpid()); got != os.Getppid() {
		t.Errorf("Parent(self) = %d, want %d", got, os.Getppid())
	}
	if got := Parent(1 << 30); got != 0 {
		t.Errorf("Parent(no such pid) = %d, want 0", got)
	}
}

func TestGroup(t *testing.T) {
	t.Parallel()
	if got, want := Group(os.Getpid()), syscall.Getpgrp(); got != want {
		t.Errorf("Group(self) = %d, want %d", got, want)
	}
	if got := Group(1 << 30); got != 0 {
		t.Errorf("Group(no such pid) = %d, want 0", got)
	}
}

// TestIdentity: the test's own process is alive, its parent is read,
// and its start time does not change; a zombie child is not alive.
func TestIdentity(t *testing.T) {
	t.Parallel()
	parent, start, alive, ok := Identity(os.Getpid())
	if !ok || !alive || parent != os.Getppid() || start == "" {
		t.Fatalf("Identity(self) = %d, %q, %v, %v", parent, start, alive, ok)
	}
	if _, again, _, _ := Identity(os.Getpid()); again != start {
		t.Errorf("the start time changed: %q, then %q", start, again)
	}
	if _, _, _, ok := Identity(1 << 30); ok {
		t.Error("Identity(no such pid) is ok")
	}
	// A child that exited and is not yet waited for is a zombie.
	var attr syscall.ProcAttr
	pid, err := syscall.ForkExec("/bin/true", []string{"true"}, &attr)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Wait4(pid, nil, 0, nil)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		_, _, alive, ok := Identity(pid)
		if !ok {
			t.Fatal("the child is gone before it was waited for")
		}
		if !alive {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the exited child never showed as a zombie")
		}
	}
}
