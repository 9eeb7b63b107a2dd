// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package cachedir is lite-sandbox's directory in the user's cache
// ($XDG_CACHE_HOME/lite-sandbox, else ~/.cache/lite-sandbox), on every
// OS: what is cached there (agent versions, checked policy examples) is
// only ever a shortcut, so one place that a person can find and delete
// matters more than each platform's convention.
package cachedir

import (
	"os"
	"path/filepath"
)

// Dir returns lite-sandbox's cache directory, or "" when neither
// $XDG_CACHE_HOME nor the home directory is known (then nothing is
// cached). It does not create the directory.
func Dir() string {
	dir := os.Getenv("XDG_CACHE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache")
	}
	return filepath.Join(dir, "lite-sandbox")
}
