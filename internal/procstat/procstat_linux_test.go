// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package procstat

import (
	"os"
	"syscall"
	"testing"
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
