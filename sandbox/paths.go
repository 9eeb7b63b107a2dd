// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"path"
	"strings"
)

// checkAbs accepts only absolute, clean paths: the builders never guess
// what a relative or unclean path was meant to be. Paths are always
// slash-separated Unix paths (package path, not path/filepath), so that
// the pure builders behave the same when their tests run on Windows.
func checkAbs(what, p string) error {
	if p == "" {
		return fmt.Errorf("%s: empty path", what)
	}
	if !path.IsAbs(p) {
		return fmt.Errorf("%s %q is not an absolute path", what, p)
	}
	if path.Clean(p) != p {
		return fmt.Errorf("%s %q is not a clean path (want %q)", what, p, path.Clean(p))
	}
	if strings.IndexByte(p, 0) >= 0 {
		return fmt.Errorf("%s %q contains a NUL byte", what, p)
	}
	return nil
}

// checkEtcName accepts a relative name below /etc such as "ssl" or
// "default/locale", and nothing that could leave /etc.
func checkEtcName(name string) error {
	switch {
	case name == "" || name == ".":
		return fmt.Errorf("/etc entry %q is empty", name)
	case strings.HasPrefix(name, "/"):
		return fmt.Errorf("/etc entry %q must be a name relative to /etc", name)
	case strings.IndexByte(name, 0) >= 0:
		return fmt.Errorf("/etc entry %q contains a NUL byte", name)
	case path.Clean(name) != name:
		return fmt.Errorf("/etc entry %q is not a clean name", name)
	}
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return fmt.Errorf("/etc entry %q leaves /etc", name)
		}
	}
	return nil
}
