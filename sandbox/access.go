// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
)

// Access is what an agent's file tool wants to do with a path.
type Access int

const (
	// Read opens one file (Claude Read, Codex view_image, Pi read).
	Read Access = iota
	// Search walks a directory tree (Glob, Grep, ls, find): refused when
	// the tree is, or contains, a sandbox.deny path.
	Search
	// Write creates, changes, renames or deletes a path.
	Write
)

func (a Access) String() string {
	switch a {
	case Read:
		return "read"
	case Search:
		return "search"
	case Write:
		return "write"
	}
	return fmt.Sprintf("access(%d)", int(a))
}
