// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shellname

import "testing"

func TestIs(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"sh": true, "/usr/bin/yash": true, "posh": true, "lksh": true, "/tmp/s/bin/bash": true,
		"bash5": true, "python3": false, "busybox": false, "git": false, "": false, "shx": false,
	} {
		if got := Is(name); got != want {
			t.Errorf("Is(%q) = %v, want %v", name, got, want)
		}
	}
}
