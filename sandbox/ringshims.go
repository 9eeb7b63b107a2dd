// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"path"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
)

// shellNames are the base names of the shells replaced by the shim: the
// one list (internal/shellname) the shim dispatches on (argv[0]).
var shellNames = shellname.Names

// shellDirs are where ShellBinaries looks for shellNames.
var shellDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"}

// ShellBinaries returns the real files behind every shell path that
// exists in dirs (and the extra candidates, such as /etc/shells entries),
// once each, in a stable order. A path whose real file is not named like
// a shell (a link to busybox) is skipped.
func ShellBinaries(fsys FS, dirs, extra []string) []string {
	var cand []string
	for _, d := range dirs {
		for _, n := range shellNames {
			cand = append(cand, path.Join(d, n))
		}
	}
	cand = append(cand, extra...)
	var out []string
	for _, c := range cand {
		if !path.IsAbs(c) || !isShellName(path.Base(c)) {
			continue
		}
		r, err := realPath(fsys, path.Clean(c))
		if err != nil {
			continue
		}
		fi, err := fsys.Stat(r)
		if err != nil || !fi.Mode().IsRegular() || !isShellName(path.Base(r)) {
			continue
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// isShellName tells a shell's base name (shellname.Is, the shim's
// argv[0] dispatch): one of [shellNames] or any name containing "bash"
// (bash-5.2).
func isShellName(n string) bool {
	return shellname.Is(n)
}

// gitNames are the base names of git binaries bound to the shim in the
// ring: the agent's own git (Claude's start-up git status, Codex's
// status line) then runs in the command sandbox, so a program that a
// repository names (core.fsmonitor, hooks, filters, diff drivers,
// core.sshCommand) never runs in the ring (escape class 47,
// docs/security-model.md).
var gitNames = []string{"git"}

// GitBinaries returns the real files behind git in dirs, once each. The
// programs in git's exec path that are git under another name
// (git-upload-pack, ...) are found by [git.Copies].
func GitBinaries(fsys FS, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		for _, n := range gitNames {
			r, err := realPath(fsys, path.Join(d, n))
			if err != nil {
				continue
			}
			if fi, err := fsys.Stat(r); err == nil && fi.Mode().IsRegular() && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}
