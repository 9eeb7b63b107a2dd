// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package fakefs is an in-memory host filesystem for the tests of the
// sandbox's pure builders and the path judge: a [FS] satisfies
// sandbox.FS, so a layout is built for a host that is the same on every
// machine (docs/security-model.md §5 names what the layouts defend).
// Only tests import it.
package fakefs

import (
	"io/fs"
	"path"
	"strings"
	"syscall"
	"time"
)

// FS is an in-memory host filesystem for the pure builders' tests.
// Entries are "dir", "file" or "link:<target>"; parents are implied.
type FS map[string]string

// New makes a filesystem of entries (path: kind), with "/" and every
// parent directory implied.
func New(entries map[string]string) FS {
	f := FS{"/": "dir"}
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

type info struct {
	name string
	mode fs.FileMode
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return 0 }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.mode.IsDir() }
func (i info) Sys() any           { return nil }

func (f FS) Lstat(name string) (fs.FileInfo, error) {
	// Walk the parents through symlinks first, like the kernel.
	dir, err := f.real(path.Dir(name))
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
	return info{name: path.Base(name), mode: mode}, nil
}

func (f FS) Stat(name string) (fs.FileInfo, error) {
	r, err := f.real(name)
	if err != nil {
		return nil, err
	}
	return f.Lstat(r)
}

func (f FS) Readlink(name string) (string, error) {
	dir, err := f.real(path.Dir(name))
	if err != nil {
		return "", err
	}
	kind := f[path.Join(dir, path.Base(name))]
	if !strings.HasPrefix(kind, "link:") {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return strings.TrimPrefix(kind, "link:"), nil
}

// Debian looks like a merged-/usr Debian host with a user whose project
// lives under the home directory.
func Debian() FS {
	return New(map[string]string{
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

// maxLinks is the kernel's ELOOP limit.
const maxLinks = 40

// real resolves every link in the absolute path p as the kernel does
// (a link before the ".." that follows it), from the map alone: the
// fake does not lean on the resolver the tests check.
func (f FS) real(p string) (string, error) {
	links := 0
	resolved := "/"
	rest := strings.TrimLeft(p, "/")
	for rest != "" {
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, comp)
		kind, ok := f[next]
		if !ok {
			return "", &fs.PathError{Op: "lstat", Path: next, Err: fs.ErrNotExist}
		}
		target, isLink := strings.CutPrefix(kind, "link:")
		if !isLink {
			resolved = next
			continue
		}
		if links++; links > maxLinks {
			return "", &fs.PathError{Op: "stat", Path: p, Err: syscall.ELOOP}
		}
		if strings.HasPrefix(target, "/") {
			resolved = "/"
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = strings.TrimLeft(target, "/")
	}
	return resolved, nil
}
