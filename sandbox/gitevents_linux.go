// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Git's trace2 events from inside the sandbox (issue #31 finding 5): a
// program the command runs (husky's `npm install` running `git config
// core.hooksPath`, `git submodule update --init`) fails to write the
// read-only .git/config half-way, and the command may still exit 0. Git
// records the error as an event; the host reads it after the command and
// explains it (shims/explain/gitevents.go). The directory is private to
// one command, or to one session with a file per command.

// NewGitEvents makes a private directory for one command's git events
// and returns it, or "" when none can be made (nothing is explained
// then).
func NewGitEvents() string {
	dir := privateDir()
	if dir == "" {
		return ""
	}
	d, err := os.MkdirTemp(dir, "git-events-")
	if err != nil {
		return ""
	}
	return d
}

// SessionGitEvents is the git events directory of the session whose
// directory is sessionDir; [MakeSessionGitEvents] makes it.
func SessionGitEvents(sessionDir string) string {
	return filepath.Join(privateDirPath(), "git-events-"+filepath.Base(sessionDir))
}

// MakeSessionGitEvents makes the session's git events directory
// (private, new) and returns it.
func MakeSessionGitEvents(sessionDir string) (string, error) {
	if privateDir() == "" {
		return "", errors.New("git events: no private directory")
	}
	d := SessionGitEvents(sessionDir)
	if err := os.Mkdir(d, 0o700); err != nil {
		return "", fmt.Errorf("git events: %w", err)
	}
	return d, nil
}

// OpenGitEvents opens an events file the sandbox wrote, for reading: the
// directory is writable inside, so the name may have been replaced by a
// symbolic link (not followed) or a FIFO (not waited on); only a regular
// file is returned.
func OpenGitEvents(file string) (*os.File, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("git events: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.New("git events: not a regular file")
	}
	return f, nil
}
