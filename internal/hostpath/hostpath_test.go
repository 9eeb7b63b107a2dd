// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package hostpath

import "testing"

func TestWithin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p, dir        string
		within, below bool
	}{
		{"/a/b", "/a", true, true},
		{"/a", "/a", true, false},
		{"/a/", "/a", true, false},
		{"/ab", "/a", false, false},
		{"/home/u/.sshfoo", "/home/u/.ssh", false, false}, // escape class 2
		{"/home/u/.ssh/id_rsa", "/home/u/.ssh", true, true},
		{"/x", "/", true, true},
		{"/", "/", true, false},
		{"/a", "/a/b", false, false},
		{"", "/", false, false},
		{"/a", "", false, false},
	} {
		if got := Within(c.p, c.dir); got != c.within {
			t.Errorf("Within(%q, %q) = %v", c.p, c.dir, got)
		}
		if got := Below(c.p, c.dir); got != c.below {
			t.Errorf("Below(%q, %q) = %v", c.p, c.dir, got)
		}
	}
	if !WithinAny("/b/c", []string{"/a", "/b"}) || WithinAny("/c", []string{"/a", "/b"}) {
		t.Error("WithinAny: want /b/c within [/a /b] and /c not")
	}
}
