// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"strconv"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
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

// Printable shows a path in a reason line: as it is, or quoted when it
// holds a character a terminal would act on (internal/esc: a control,
// C1, bidi formatting, invalid UTF-8; a newline must not start a second
// line the model would read as ours).
func Printable(p string) string {
	if esc.Text(p) != p {
		return strconv.Quote(p)
	}
	return p
}
