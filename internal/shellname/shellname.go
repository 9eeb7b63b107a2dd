// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package shellname is the one list of shell names (#29), read by
// every place that must agree on it: the shells the agent ring binds to
// the shim (sandbox.ShellBinaries), the names under which the shim
// binaries act as the shim (shims/forward, and so the shim's -c), the
// shells whose -c operand the validator parses as Bash
// (shims/validator), and the shells a Codex tool call may name
// (agents/codex). A shell the ring binds but the shim does not know
// would fail there ("unknown flag -c"); one the validator does not know
// would hide its -c command from it.
package shellname

import (
	"path/filepath"
	"slices"
	"strings"
)

// Names are the base names of the POSIX-like shells a caller may run
// with -c. busybox is left out: binding over it would replace every
// applet.
var Names = []string{"sh", "bash", "rbash", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh", "oksh", "pdksh", "ash", "yash", "posh"}

// Is reports whether a program's base name is a shell's: one of
// [Names], or any name containing "bash" (a session's shim is
// <session>/bin/bash; Claude Code takes only such paths).
func Is(name string) bool {
	base := filepath.Base(name)
	return slices.Contains(Names, base) || strings.Contains(base, "bash")
}
