// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
)

// kind is the family of shell a caller asked for, which decides the
// real shell that runs the command inside the sandbox and the flags that
// keep it from reading rc and profile files.
type kind int

const (
	kindUnknown kind = iota // not a shell name (lite-sandbox-shim, `lite-sandbox shim`): bash
	kindBash                // bash, rbash, any name containing "bash"
	kindSh                  // sh: the system's /bin/sh (dash on Debian)
	kindDash
	kindZsh
	kindKsh
	kindMksh
	kindAsh
	kindOther // lksh, oksh, pdksh, yash, posh: the real one when installed, else bash
)

// shellKinds are the shells the shim runs in a way of their own; every
// other name of the one list (internal/shellname, which the agent ring
// binds to the shim) is kindOther.
var shellKinds = map[string]kind{
	"sh": kindSh, "bash": kindBash, "rbash": kindBash, "dash": kindDash,
	"zsh": kindZsh, "ksh": kindKsh, "ksh93": kindKsh, "mksh": kindMksh, "ash": kindAsh,
}

func shellKind(name string) kind {
	base := filepath.Base(name)
	if k, ok := shellKinds[base]; ok {
		return k
	}
	if strings.Contains(base, "bash") {
		return kindBash
	}
	if slices.Contains(shellname.Names, base) {
		return kindOther
	}
	return kindUnknown
}

// innerShell returns the real shell, and the flags that keep it from
// reading startup files, that runs a command the caller asked name to
// run. The path is looked up in the system directories, which the
// sandbox mounts read-only at the same place (inside the agent ring the
// same paths are the shim, but only the sandbox's copy is ever run).
// zsh, ksh and the others fall back to bash when they are not installed.
func innerShell(name string) (path string, flags []string) {
	switch k := shellKind(name); k {
	case kindSh:
		if p := systemShell("sh"); p != "" {
			return p, nil
		}
	case kindDash, kindKsh, kindMksh, kindAsh, kindOther:
		if p := systemShell(filepath.Base(name)); p != "" {
			return p, nil
		}
	case kindZsh:
		// -f: NO_RCS, no .zshenv/.zshrc (zsh reads .zshenv even for -c).
		if p := systemShell("zsh"); p != "" {
			return p, []string{"-f"}
		}
	case kindBash:
		if b := filepath.Base(name); b == "rbash" {
			if p := systemShell(b); p != "" {
				return p, []string{"--noprofile", "--norc"}
			}
		}
	}
	return bash(), []string{"--noprofile", "--norc"}
}

// systemShell finds name in the system's binary directories.
func systemShell(name string) string {
	for _, d := range []string{"/bin", "/usr/bin", "/usr/local/bin"} {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}
