// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// Paths outside the workspace (issue #31): the sandbox shows the system
// directories, the user's grants and the workspace; of the workspace's
// parents only the directories on the way to it. A sibling repository
// (../other), a tool in ~/bin or a repository whose workspace is one of
// its subdirectories (.git above it) therefore fail with the tool's own
// "No such file or directory", "command not found" or "not a git
// repository". These lines name the path, which exists on the host, and
// the way out. They read the host's disk (a stat per operand), only
// after a command failed.

// hidden tells whether abs (clean, absolute), outside the workspace,
// exists on the host but is not shown in the sandbox. Without the
// sandbox's shape (Visible nil: its spec could not be built) nothing is
// said.
func (c Context) hidden(abs string) bool {
	if c.Visible == nil || c.Workspace == "" || hostpath.Within(abs, c.Workspace) || hostpath.Within(c.Workspace, abs) {
		return false // the workspace, or a directory on the way to it
	}
	for _, v := range c.Visible {
		// Below a grant, or a directory on the way to one (/etc for
		// its listed entries): shown.
		if hostpath.Within(abs, v) || hostpath.Within(v, abs) {
			return false
		}
	}
	if hostpath.Within(abs, "/proc") || hostpath.Within(abs, "/dev") {
		return false
	}
	_, err := os.Stat(abs)
	return err == nil
}

// outsideLine explains an operand p (as written; relative ones to dir)
// that names a hidden path, or returns "".
func (c Context) outsideLine(p, dir string) string {
	if p == "" || strings.HasPrefix(p, "-") || strings.ContainsAny(p, "\x00\n") {
		return ""
	}
	if dir == "" {
		dir = c.Cwd
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(dir, p)
	}
	abs = filepath.Clean(abs)
	if !c.hidden(abs) {
		return ""
	}
	shown := abs
	if c.Home != "" && hostpath.Below(abs, c.Home) {
		shown = "~" + strings.TrimPrefix(abs, c.Home)
	}
	where := "outside the workspace and not visible in the sandbox"
	if c.Home != "" && hostpath.Within(abs, c.Home) {
		where = "in the home directory, which is an empty scratch directory in the sandbox"
	} else if hostpath.Within(abs, "/tmp") {
		where = "in /tmp, which is an empty directory of its own in the sandbox"
	}
	return "lite-sandbox: " + shown + " exists on the host but is " + where +
		" (to allow: add it to sandbox.read, or sandbox.write to change it, in your own config; or start from a directory that holds both)"
}

// toolLine explains a command name not found in the sandbox that the
// host's PATH finds in a hidden directory (~/bin, ~/.local/bin), or "".
func (c Context) toolLine(name string) string {
	if name == "" || strings.ContainsRune(name, '/') {
		return ""
	}
	for _, d := range filepath.SplitList(c.Path) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(filepath.Clean(d), name)
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			continue
		}
		if !c.hidden(p) {
			return "" // the sandbox finds this one
		}
		shown := filepath.Dir(p)
		if c.Home != "" && hostpath.Below(shown, c.Home) {
			shown = "~" + strings.TrimPrefix(shown, c.Home)
		}
		return "lite-sandbox: " + name + " is " + p + " on the host, in a directory the sandbox does not show (to allow: add " +
			shown + " to sandbox.tools, read-only, in your own config)"
	}
	return ""
}

// repoLine explains, for a failed git command, a workspace that is a
// subdirectory of a repository whose .git is above it, or returns "".
func (c Context) repoLine(calls []validator.Call) string {
	git := false
	for _, call := range calls {
		git = git || len(call.Argv) > 0 && filepath.Base(call.Argv[0]) == "git"
	}
	if !git || c.Workspace == "" {
		return ""
	}
	if _, err := os.Lstat(filepath.Join(c.Workspace, ".git")); err == nil {
		return ""
	}
	for d := filepath.Dir(c.Workspace); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if !c.hidden(filepath.Join(d, ".git")) {
				return ""
			}
			return "lite-sandbox: the workspace is a subdirectory of the git repository " + d + ", whose .git is outside the workspace and not visible in the sandbox: git does not work here, and only the workspace's files are (start lite-sandbox from the repository's root, " + d + ")"
		}
		if d == "/" || d == "." {
			return ""
		}
	}
}

// operands returns a call's arguments that may name a file: the command
// itself when it is a path, and the arguments that are not options.
func operands(argv []string) []string {
	var out []string
	if len(argv) > 0 && strings.ContainsRune(argv[0], '/') {
		out = append(out, argv[0])
	}
	for _, a := range argv[min(1, len(argv)):] {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}
