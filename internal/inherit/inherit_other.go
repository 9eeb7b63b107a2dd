// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix && !linux

package inherit

// cloexecFrom marks the descriptors /dev/fd lists from first up
// close-on-exec (macOS and the BSDs have no close_range flag for it).
func cloexecFrom(first int) error { return cloexecListed(first, "/dev/fd") }
