// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package hostpath is the one containment test of lite-sandbox, on host
// paths, shared by the sandbox and the parts below it (the guard of
// protected paths, the git mounts).
package hostpath

import (
	"path"
	"strings"
)

// Within reports whether p is dir or lies inside it. It is lexical (no
// symlinks are resolved: callers pass canonical paths when that
// matters), both paths are cleaned first, and "" is never within
// anything. Its other meanings have their own names: [Below] (strictly
// inside), and the validator's pattern containment (patternWithin).
func Within(p, dir string) bool {
	if p == "" || dir == "" {
		return false // an unknown path is inside nothing, and contains nothing
	}
	p, dir = path.Clean(p), path.Clean(dir)
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Below reports whether p lies strictly inside dir (dir itself is not
// below dir).
func Below(p, dir string) bool {
	return Within(p, dir) && path.Clean(p) != path.Clean(dir)
}

// WithinAny reports whether p lies within one of dirs.
func WithinAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if Within(p, d) {
			return true
		}
	}
	return false
}
