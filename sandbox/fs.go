// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// FS is the read-only view of the host filesystem that [Layout] needs.
// Tests pass a fake; production code passes [OSFS].
type FS interface {
	// Lstat describes a path without following a final symlink.
	Lstat(name string) (fs.FileInfo, error)
	// Stat describes a path, following symlinks.
	Stat(name string) (fs.FileInfo, error)
	// Readlink returns the target of a symlink.
	Readlink(name string) (string, error)
}

// OSFS is the host filesystem.
type OSFS struct{}

// Lstat calls [os.Lstat].
func (OSFS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }

// Stat calls [os.Stat].
func (OSFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// Readlink calls [os.Readlink].
func (OSFS) Readlink(name string) (string, error) { return os.Readlink(name) }

// maxLinks bounds symlink resolution, like the kernel's ELOOP limit.
const maxLinks = 40

// realPath resolves every symlink in the absolute path p, like
// realpath(3), through fsys. It fails with an error wrapping
// fs.ErrNotExist when p or a link target is missing.
func realPath(fsys FS, p string) (string, error) {
	r, err := resolve(fsys, p, false)
	if errors.Is(err, errLinkLoop) {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	return r, err
}

// errLinkLoop is resolve's error past maxLinks links.
var errLinkLoop = errors.New("too many levels of symbolic links")

// resolve is realPath and, with forWrite, resolveForWrite: one walk over
// the components of p that follows every link, as the kernel does.
func resolve(fsys FS, p string, forWrite bool) (string, error) {
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
		fi, err := fsys.Lstat(next)
		if err != nil {
			if forWrite && missing(err) {
				return path.Join(next, rest), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if links++; links > maxLinks {
			return "", errLinkLoop
		}
		target, err := fsys.Readlink(next)
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(target, "/") {
			resolved = "/"
		}
		// No lexical cleaning here: "link/.." must resolve the link
		// first, as the kernel does.
		if rest != "" {
			target += "/" + rest
		}
		rest = strings.TrimLeft(target, "/")
	}
	return resolved, nil
}

// missing reports whether err means that the sandboxed command could not
// reach the path either: it does not exist, or the user may not look it
// up (the sandbox runs as the same user, without capabilities).
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
}

// ResolveForWrite is [realPath] for a path that may not exist yet: a
// missing component ends the resolution and the rest is appended
// lexically (nothing below a missing directory can be a link), and a
// dangling final link resolves to its target.
func ResolveForWrite(fsys FS, p string) (string, error) {
	return resolve(fsys, p, true)
}
