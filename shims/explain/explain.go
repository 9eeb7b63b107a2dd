// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package explain turns a failed command into one short line per likely
// sandbox denial, naming what was blocked and the policy key that would
// allow it, so that an agent stops retrying a bare "Permission denied"
// (docs/security-model.md §7).
//
// It is a best-effort static reading of the command, through the
// validator's own walk (redirect targets, the operands of commands that
// write files, network intent); it runs
// only after a command failed, and nothing is confined by it: the OS
// sandbox already refused.
package explain

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// Context is what the sandbox looked like for the command.
type Context struct {
	Workspace string
	Cwd       string
	Home      string
	// Protect lists absolute protected paths.
	Protect []string
	// Writable lists absolute writable paths outside the workspace
	// (sandbox.write, caches).
	Writable []string
	// NetworkOff is true when the command had no network.
	NetworkOff bool
	// Visible lists the absolute paths outside the workspace the sandbox
	// shows (system directories, /etc, sandbox.read, sandbox.write,
	// tools, caches): a path elsewhere that exists on the host is hidden.
	Visible []string
	// Path is the command's PATH, to find a tool the sandbox hides.
	Path string
	// Root is true when the command ran as root, which in the sandbox
	// has no capabilities (rootcaps.go).
	Root bool
	// Open is set when the command ran under network = "open" in a
	// namespace of its own (opennet.go).
	Open *OpenNet
}

// maxLines bounds what one failure prints.
const maxLines = 3

// Lines returns the explanation lines for a command that failed in the
// sandbox, each starting with "lite-sandbox: ", or nil. The command is
// read as the validator reads it ([validator.Trace]): wrappers and nested
// scripts unwrapped, words decoded, cd followed.
func Lines(cmd string, c Context) []string {
	calls, writes := validator.Trace(cmd, validator.Env{Workspace: c.Workspace, Home: c.Home, Cwd: c.Cwd})
	return LinesOf(validator.Traced{Calls: calls, Writes: writes}, c)
}

// LinesOf is [Lines] for a command already traced by the walk that
// judged it ([validator.Validator.CheckTraced]): no second parse.
func LinesOf(t validator.Traced, c Context) []string {
	calls, writes := t.Calls, t.Writes
	var out []string
	add := func(l string) {
		if l != "" && len(out) < maxLines && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	for _, w := range writes {
		add(c.write(w.Path, w.Dir))
	}
	network := false
	for _, call := range calls {
		for _, t := range targets(call.Argv) {
			add(c.write(t, call.Dir))
		}
		network = network || c.NetworkOff && wantsNetwork(call.Argv)
	}
	add(c.repoLine(calls))
	if c.Open != nil {
		var argvs []callArgs
		var paths []string
		for _, call := range calls {
			argvs = append(argvs, call.Argv)
		}
		for _, w := range writes {
			paths = append(paths, w.Path)
		}
		for _, l := range c.Open.openLines(argvs, paths) {
			add(l)
		}
	}
	for _, call := range calls {
		for _, o := range operands(call.Argv) {
			add(c.outsideLine(o, call.Dir))
		}
		if len(call.Argv) > 0 {
			add(c.toolLine(call.Argv[0]))
		}
		add(c.rootLine(call.Argv))
	}
	if network && len(out) < maxLines {
		out = append(out, `lite-sandbox: the network is off in this sandbox (to allow: sandbox.network = "open", or --network open)`)
	}
	return out
}

// write explains why a write to p (decoded; relative ones to dir, or to
// the command's directory when dir is unknown) was refused, or returns "".
func (c Context) write(p, dir string) string {
	if p == "" || p == "-" {
		return ""
	}
	if dir == "" {
		dir = c.Cwd
	}
	if l := c.gitLine(p); l != "" {
		return l
	}
	abs := p
	switch {
	case !filepath.IsAbs(p):
		abs = filepath.Join(dir, p)
	case c.Home != "" && hostpath.Within(p, c.Home):
		// Shown as the command most likely wrote it.
		p = "~" + strings.TrimPrefix(p, c.Home)
	}
	abs = filepath.Clean(abs)
	for _, pr := range c.Protect {
		if hostpath.Within(abs, pr) {
			return "lite-sandbox: " + p + " is protected and read-only in the sandbox (sandbox.protect; a person can remove it with sandbox.unprotect in their own config)"
		}
	}
	if hostpath.Within(abs, c.Workspace) {
		return ""
	}
	for _, w := range c.Writable {
		if hostpath.Within(abs, w) {
			return ""
		}
	}
	if (c.Home == "" || !hostpath.Within(abs, c.Home)) && c.hidden(filepath.Dir(abs)) {
		// A sibling of the workspace (../other/x): not read-only but
		// absent in the sandbox (outside.go).
		return "lite-sandbox: " + p + " is in " + filepath.Dir(abs) + ", which exists on the host but is not visible in the sandbox (to allow: add it to sandbox.write in your own config)"
	}
	for _, ok := range []string{"/tmp", "/dev"} {
		if hostpath.Within(abs, ok) {
			return ""
		}
	}
	if c.Home != "" && hostpath.Within(abs, c.Home) {
		return "lite-sandbox: " + p + " is in the home directory, which is an empty scratch directory in the sandbox: nothing written there reaches the real one (to allow: add it to sandbox.write)"
	}
	return "lite-sandbox: " + p + " is outside the workspace and read-only in the sandbox (to allow: add it to sandbox.write)"
}

// writers maps a command to how its operands are written: "all" (every
// operand), "last" (the destination), or "sed" (files, with -i only).
var writers = map[string]string{
	"touch": "all", "rm": "all", "rmdir": "all", "mkdir": "all", "tee": "all",
	"chmod": "rest", "chown": "rest", "chgrp": "rest", "truncate": "all",
	"cp": "last", "mv": "last", "ln": "last", "install": "last", "rsync": "last",
	"sed": "sed", "perl": "sed", "dd": "dd", "git": "git",
}

// targets returns the paths a simple command writes, as written.
func targets(args []string) []string {
	if len(args) == 0 {
		return nil
	}
	// Wrappers (env, nice, sudo, ...) were unwrapped by the trace: their
	// command is a call of its own.
	name := filepath.Base(args[0])
	var ops []string
	inplace := false
	for _, a := range args[1:] {
		switch {
		case a == "-i" || strings.HasPrefix(a, "-i") && (name == "sed" || name == "perl") || a == "--in-place":
			inplace = true
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	switch writers[name] {
	case "all":
		return ops
	case "rest":
		if len(ops) > 1 {
			return ops[1:]
		}
	case "last":
		if len(ops) > 1 {
			return ops[len(ops)-1:]
		}
	case "sed":
		if inplace && len(ops) > 1 {
			return ops[1:]
		}
	case "dd":
		for _, a := range args[1:] {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				return []string{v}
			}
		}
	case "git":
		return gitTargets(args[1:])
	}
	return nil
}

// wantsNetwork tells whether a simple command is likely to need the
// network.
func wantsNetwork(args []string) bool {
	if len(args) == 0 {
		return false
	}
	sub := ""
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			sub = a
			break
		}
	}
	switch filepath.Base(args[0]) {
	case "curl", "wget", "ssh", "scp", "nc", "ncat", "ping", "dig", "nslookup", "host", "ftp", "telnet":
		return true
	case "git":
		return slices.Contains([]string{"fetch", "pull", "push", "clone", "ls-remote", "submodule"}, sub)
	case "npm", "pnpm", "yarn", "bun":
		return slices.Contains([]string{"install", "i", "ci", "add", "update", "upgrade", "publish", "view", "info", ""}, sub)
	case "pip", "pip3", "uv", "poetry":
		return slices.Contains([]string{"install", "download", "add", "sync", "lock"}, sub)
	case "go":
		return slices.Contains([]string{"get", "install", "mod"}, sub)
	case "cargo":
		return slices.Contains([]string{"fetch", "install", "update", "add", "search", "publish"}, sub)
	case "apt", "apt-get", "docker", "gh":
		return true
	}
	return false
}
