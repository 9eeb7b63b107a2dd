// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package sandbox

import (
	"errors"
	"os"
)

// NewGitEvents returns "": git's events are read on Linux only.
func NewGitEvents() string { return "" }

// SessionGitEvents returns "" off Linux.
func SessionGitEvents(string) string { return "" }

// MakeSessionGitEvents fails off Linux.
func MakeSessionGitEvents(string) (string, error) {
	return "", errors.New("git events: Linux only")
}

// OpenGitEvents fails off Linux.
func OpenGitEvents(string) (*os.File, error) { return nil, errors.New("git events: Linux only") }
