// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"sort"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/fakefs"
)

// The builders' tests read the host from sandbox/fakefs, one copy shared
// with the path judge's tests.
type fakeFS = fakefs.FS

func newFakeFS(entries map[string]string) fakeFS { return fakefs.New(entries) }

func debianFS() fakeFS { return fakefs.Debian() }

func TestFakeFS(t *testing.T) {
	t.Parallel()
	f := debianFS()
	for _, c := range []struct{ in, want string }{
		{"/bin/sh", "/usr/bin/sh"},
		{"/etc/localtime", "/usr/share/zoneinfo/Etc/UTC"},
		{"/etc/os-release", "/usr/lib/os-release"},
		{"/home/user/.gnupg", "/home/user/dotfiles/gnupg"},
		{"/lib/../etc/hosts", "/etc/hosts"}, // /lib is usr/lib: .. is /usr
	} {
		got, err := realPath(f, c.in)
		if c.in == "/lib/../etc/hosts" {
			// /usr/etc/hosts does not exist: the link is resolved before
			// "..", as the kernel does.
			if err == nil {
				t.Errorf("realPath(%q) = %q, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("realPath(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := f.Stat("/etc/gitconfig"); err == nil {
		t.Error("dangling /etc/gitconfig: Stat succeeded")
	}
	var names []string
	for p := range f {
		names = append(names, p)
	}
	sort.Strings(names)
	if names[0] != "/" {
		t.Errorf("fake root missing: %v", names[:3])
	}
}
