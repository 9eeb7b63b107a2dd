// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package probe

import (
	"os"
	"strings"
	"testing"
)

// TestReadKernel: four lines with a value each, the release /proc
// gives, and a Landlock ABI that agrees with its line.
func TestReadKernel(t *testing.T) {
	t.Parallel()
	k := ReadKernel()
	lines := k.Lines()
	if len(lines) != 4 {
		t.Fatalf("lines = %q", lines)
	}
	for _, l := range lines {
		t.Log(l)
		name, value, ok := strings.Cut(l, ": ")
		if !ok || name == "" || strings.TrimSpace(value) == "" {
			t.Errorf("bad line %q", l)
		}
	}
	rel, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err == nil && k.Release != strings.TrimSpace(string(rel)) {
		t.Errorf("release %q, /proc says %q", k.Release, rel)
	}
	if k.LandlockABI < 0 || (k.LandlockABI > 0) != strings.HasPrefix(k.Landlock, "ABI version") {
		t.Errorf("landlock %d %q", k.LandlockABI, k.Landlock)
	}
}
