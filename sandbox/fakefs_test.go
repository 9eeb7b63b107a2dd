// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"
	"time"
)

// fakeFS is an in-memory host filesystem for the pure builders' tests.
// Entries are "dir", "file" or "link:<target>"; parents are implied.
type fakeFS map[string]string

func newFakeFS(entries map[string]string) fakeFS {
	f := fakeFS{"/": "dir"}
	for p, kind := range entries {
		f[p] = kind
		for d := path.Dir(p); d != "/"; d = path.Dir(d) {
			if _, ok := f[d]; !ok {
				f[d] = "dir"
			}
		}
	}
	return f
}

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return i.mode }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fakeInfo) Sys() any           { return nil }

func (f fakeFS) Lstat(name string) (fs.FileInfo, error) {
	// Walk the parents through symlinks first, like the kernel.
	dir, err := realPath(f, path.Dir(name))
	if err != nil {
		return nil, err
	}
	p := path.Join(dir, path.Base(name))
	if name == "/" {
		p = "/"
	}
	kind, ok := f[p]
	if !ok {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	mode := fs.FileMode(0o644)
	switch {
	case kind == "dir":
		mode = fs.ModeDir | 0o755
	case strings.HasPrefix(kind, "link:"):
		mode = fs.ModeSymlink | 0o777
	}
	return fakeInfo{name: path.Base(name), mode: mode}, nil
}

func (f fakeFS) Stat(name string) (fs.FileInfo, error) {
	r, err := realPath(f, name)
	if err != nil {
		return nil, err
	}
	return f.Lstat(r)
}

func (f fakeFS) Readlink(name string) (string, error) {
	dir, err := realPath(f, path.Dir(name))
	if err != nil {
		return "", err
	}
	kind := f[path.Join(dir, path.Base(name))]
	if !strings.HasPrefix(kind, "link:") {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return strings.TrimPrefix(kind, "link:"), nil
}

// debianFS looks like a merged-/usr Debian host with a user whose project
// lives under the home directory.
func debianFS() fakeFS {
	return newFakeFS(map[string]string{
		"/usr/bin/sh":                     "file",
		"/usr/lib/os-release":             "file",
		"/usr/lib64/ld-linux-x86-64.so.2": "file",
		"/usr/sbin":                       "dir",
		"/usr/share/zoneinfo/Etc/UTC":     "file",
		"/bin":                            "link:usr/bin",
		"/lib":                            "link:usr/lib",
		"/lib64":                          "link:usr/lib64",
		"/sbin":                           "link:usr/sbin",
		"/opt":                            "dir",
		"/proc/sys/kernel":                "dir",
		"/sys/fs/cgroup":                  "dir",
		"/etc/resolv.conf":                "file",
		"/etc/hosts":                      "file",
		"/etc/nsswitch.conf":              "file",
		"/etc/host.conf":                  "file",
		"/etc/passwd":                     "file",
		"/etc/group":                      "file",
		"/etc/shadow":                     "file",
		"/etc/localtime":                  "link:/usr/share/zoneinfo/Etc/UTC",
		"/etc/timezone":                   "file",
		"/etc/ssl/certs":                  "dir",
		"/etc/ca-certificates.conf":       "file",
		"/etc/gitconfig":                  "link:/nonexistent/gitconfig", // dangling: skipped
		"/etc/profile":                    "file",
		"/etc/alternatives":               "dir",
		"/etc/ld.so.cache":                "file",
		"/etc/ld.so.conf":                 "file",
		"/etc/ld.so.conf.d":               "dir",
		"/etc/default/locale":             "file",
		"/etc/os-release":                 "link:../usr/lib/os-release",
		"/home/user/.ssh/id_rsa":          "file",
		"/home/user/.aws/credentials":     "file",
		"/home/user/.netrc":               "file",
		"/home/user/.config/gh/hosts.yml": "file",
		"/home/user/dotfiles/gnupg":       "dir",
		"/home/user/.gnupg":               "link:dotfiles/gnupg",
		"/home/user/project/main.go":      "file",
		"/tmp/ws":                         "dir",
	})
}

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
