// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// HomeLines returns one line for each path a command wrote, by its
// operands and redirect targets, in the scratch home: in the Linux
// sandbox $HOME is an empty tmpfs, so a file written there is gone when
// the sandbox ends (the command's, or the session's) while the command
// reports success. Writes that persist (the workspace, sandbox.write,
// the caches) get no line. It reads the command as [Lines] does, and is
// as cheap: no file is looked at.
func HomeLines(cmd string, c Context, session bool) []string {
	if c.Home == "" || !MayReachHome(cmd, c.Home) {
		return nil
	}
	calls, writes := validator.Trace(cmd, validator.Env{Workspace: c.Workspace, Home: c.Home, Cwd: c.Cwd})
	return homeLines(validator.Traced{Calls: calls, Writes: writes}, c, session)
}

// HomeLinesOf is [HomeLines] for a command already traced by the walk
// that judged it ([validator.Validator.CheckTraced]): no second parse.
func HomeLinesOf(cmd string, t validator.Traced, c Context, session bool) []string {
	if c.Home == "" || !MayReachHome(cmd, c.Home) {
		return nil
	}
	return homeLines(t, c, session)
}

func homeLines(t validator.Traced, c Context, session bool) []string {
	calls, writes := t.Calls, t.Writes
	var paths []string
	add := func(p, dir string) {
		if d, ok := c.scratch(p, dir); ok && !slices.Contains(paths, d) {
			paths = append(paths, d)
		}
	}
	for _, w := range writes {
		add(w.Path, w.Dir)
	}
	for _, call := range calls {
		if len(call.Argv) > 0 && filepath.Base(call.Argv[0]) == "rm" || len(call.Argv) > 0 && filepath.Base(call.Argv[0]) == "rmdir" {
			continue // removing from the scratch home loses nothing
		}
		for _, t := range targets(call.Argv) {
			add(t, call.Dir)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	when := "when this command ends"
	if session {
		when = "when the session ends"
	}
	shown := paths
	if len(shown) > maxLines {
		shown = shown[:maxLines]
	}
	verb := " is"
	if len(paths) > 1 {
		verb = " are"
	}
	return []string{"lite-sandbox: " + strings.Join(shown, ", ") + more(len(paths)-len(shown)) +
		verb + " in the scratch home ($HOME is an empty directory in the sandbox): gone " + when +
		" (to keep it: write it to the workspace, or add its directory to sandbox.write)"}
}

func more(n int) string {
	if n <= 0 {
		return ""
	}
	return " and " + strconv.Itoa(n) + " more"
}

// scratch reports whether a write to p (relative to dir, or to the
// command's directory) lands in the scratch home and does not persist,
// and how to show it.
func (c Context) scratch(p, dir string) (string, bool) {
	if p == "" || p == "-" || p == gitConfig || p == gitGlobal {
		return "", false
	}
	if dir == "" {
		dir = c.Cwd
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(dir, p)
	}
	abs = filepath.Clean(abs)
	if !hostpath.Within(abs, c.Home) || hostpath.Within(abs, c.Workspace) {
		return "", false
	}
	for _, w := range c.Writable {
		if hostpath.Within(abs, w) {
			return "", false
		}
	}
	return "~" + strings.TrimPrefix(abs, c.Home), true
}

// MayReachHome is a cheap filter run before [HomeLines] needs anything
// else (the parse, the shim's explain context): a command can name a
// path in the home only through ~, $HOME (or ${HOME}), the home's own
// path, "..", or a cd.
func MayReachHome(cmd, home string) bool {
	return strings.Contains(cmd, "~") || strings.Contains(cmd, "HOME") || strings.Contains(cmd, home) ||
		strings.Contains(cmd, "..") || strings.Contains(cmd, "cd") || strings.Contains(cmd, "pushd")
}
