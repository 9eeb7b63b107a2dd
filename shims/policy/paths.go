// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// checkEntry checks one list entry: an environment glob or a path.
func checkEntry(key, v string) error {
	if key == "sandbox.env" || key == "sandbox.secret_env" {
		if v == "" || strings.ContainsAny(v, "= \x00") {
			return fmt.Errorf("%s: %q is not a variable name or glob", key, v)
		}
		if _, err := path.Match(v, ""); err != nil {
			return fmt.Errorf("%s: %q: %w", key, v, err)
		}
		return nil
	}
	return checkPath(key, v)
}

func checkPath(key, v string) error {
	switch {
	case v == "":
		return fmt.Errorf("%s: empty path", key)
	case strings.ContainsRune(v, 0):
		return fmt.Errorf("%s: path contains a NUL byte", key)
	case key == "sandbox.etc":
		if strings.HasPrefix(v, "/") || slices.Contains(strings.Split(v, "/"), "..") {
			return fmt.Errorf("%s: %q must be a name relative to /etc", key, v)
		}
	case !strings.HasPrefix(v, "/") && v != "~" && !strings.HasPrefix(v, "~/"):
		return fmt.Errorf("%s: %q must be absolute or start with ~/", key, v)
	}
	return checkNoGlob(key, v)
}

// checkNoGlob refuses a glob in a path list (escape class 61): a mount
// takes one path, so a pattern such as "*.pem" would be matched against
// nothing (or once, at start, missing files created later) and silently
// protect nothing. The way out is the directory that holds the files.
func checkNoGlob(key, v string) error {
	if strings.ContainsAny(v, "*?[") {
		return fmt.Errorf("%s: %q is a glob, and paths here are literal (a pattern would protect nothing, "+
			"and miss files created later): name each path, or the directory that holds them", key, v)
	}
	return nil
}

// checkRelPath checks a path relative to the workspace: not absolute, no
// "..", no NUL.
func checkRelPath(key, v string) error {
	switch {
	case v == "" || v == "/" || v == ".":
		return fmt.Errorf("%s: %q is not a path inside the workspace", key, v)
	case strings.ContainsRune(v, 0):
		return fmt.Errorf("%s: path contains a NUL byte", key)
	case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~"):
		return fmt.Errorf("%s: %q must be relative to the workspace", key, v)
	case slices.Contains(strings.Split(v, "/"), ".."):
		return fmt.Errorf("%s: %q must not contain a \"..\" component", key, v)
	}
	return checkNoGlob(key, v)
}
