// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"path"
	"strconv"
	"strings"

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

// PathJudge decides whether an agent's own file tool may touch a path,
// with the same policy as the command sandbox: writes only inside the
// workspace and never on a protected path, reads never of a
// sandbox.deny path. It explains; the agent ring (or, without it,
// nothing) is the boundary, so a wrong "allowed" here is an unexplained
// failure, never an escape by itself.
type PathJudge struct {
	Spec Spec
	// AgentWrite are further paths the agent's tools may write
	// (agent.write in the user's own config), absolute and clean.
	AgentWrite []string
	// Visible, when not nil, is what the agent ring shows: a read
	// elsewhere (outside the workspace too) is refused, naming
	// agent.read, the key that would grant it.
	Visible []string
	// FS is where links are resolved; nil means [OSFS].
	FS FS
}

// PathVerdict is a PathJudge's answer.
type PathVerdict struct {
	Allowed bool
	// Path is the absolute path the tool would touch, symlinks resolved.
	Path string
	// Reason is one line for the model, naming the policy key, when
	// refused.
	Reason string
}

// Judge resolves p (relative to cwd; "~" and "~/x" are the home
// directory) the way the kernel would follow it, and judges access to
// the result: symlinks of every existing component are followed, also a
// final dangling one (a write through it creates its target), and the
// components that do not exist yet are appended lexically. A path it
// cannot resolve is refused (fail closed: escape class 5, symlinks).
func (j PathJudge) Judge(a Access, p, cwd string) PathVerdict {
	abs, err := j.absolute(p, cwd)
	if err != nil {
		return PathVerdict{Path: p, Reason: fmt.Sprintf("lite-sandbox: cannot judge the path %s, so it was refused: %v", strconv.Quote(p), err)}
	}
	fsys := j.FS
	if fsys == nil {
		fsys = OSFS{}
	}
	real, err := resolveForWrite(fsys, abs)
	if err != nil {
		return PathVerdict{Path: abs, Reason: fmt.Sprintf("lite-sandbox: cannot resolve %s, so it was refused: %v", printable(abs), err)}
	}
	v := PathVerdict{Path: real}
	shown := printable(real)
	if real != abs {
		shown = fmt.Sprintf("%s (which leads to %s)", printable(p), printable(real))
	}
	if d, ok := j.denied(real, a == Search); ok {
		how := "lies in"
		if !Within(real, d) {
			how = "contains"
		}
		v.Reason = fmt.Sprintf("lite-sandbox: %s %s %s, which is hidden from the agent and its commands (sandbox.deny)", shown, how, printable(d))
		return v
	}
	if a != Write {
		if j.Visible != nil && !Within(real, j.Spec.Workspace) && !withinAny(real, j.Visible) {
			v.Reason = fmt.Sprintf("lite-sandbox: %s is not visible to the agent: its ring shows only the workspace, the system, its own state, git identity, tools and caches (to allow: add the path to agent.read in your own config)", shown)
			return v
		}
		v.Allowed = true
		return v
	}
	if pr, ok := j.protected(real); ok {
		v.Reason = fmt.Sprintf("lite-sandbox: %s is protected and read-only (sandbox.protect: %s; a person can remove it with sandbox.unprotect in their own config)", shown, printable(j.rel(pr)))
		return v
	}
	ws := j.Spec.Workspace
	if ws != "" && Within(real, ws) || withinAny(real, j.AgentWrite) {
		v.Allowed = true
		return v
	}
	v.Reason = fmt.Sprintf("lite-sandbox: %s is outside the workspace %s; the agent may write only inside it (to allow: add the path to agent.write in your own config)", shown, printable(ws))
	return v
}

// absolute expands ~ and makes p absolute against cwd (the workspace
// when cwd is empty), without cleaning: ".." must follow links.
func (j PathJudge) absolute(p, cwd string) (string, error) {
	switch {
	case p == "":
		return "", fmt.Errorf("empty path")
	case strings.IndexByte(p, 0) >= 0:
		return "", fmt.Errorf("NUL byte in the path")
	case p == "~" || strings.HasPrefix(p, "~/"):
		if j.Spec.Home == "" {
			return "", fmt.Errorf("the home directory is unknown")
		}
		return j.Spec.Home + p[1:], nil
	case strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("only ~ and ~/ are expanded")
	case path.IsAbs(p):
		return p, nil
	}
	if cwd == "" {
		cwd = j.Spec.Workspace
	}
	if !path.IsAbs(cwd) {
		return "", fmt.Errorf("the working directory %q is not absolute", cwd)
	}
	return cwd + "/" + p, nil
}

// denied returns the sandbox.deny entry p lies in (or, for a search,
// one that lies in p).
func (j PathJudge) denied(p string, search bool) (string, bool) {
	for _, d := range j.Spec.Deny {
		if Within(p, d) || search && Within(d, p) {
			return d, true
		}
	}
	return "", false
}

// protected returns the protected path p is, or lies in.
func (j PathJudge) protected(p string) (string, bool) {
	for _, pr := range j.Spec.Protect {
		if Within(p, pr.Path) {
			return pr.Path, true
		}
	}
	return "", false
}

func (j PathJudge) rel(p string) string {
	if ws := j.Spec.Workspace; ws != "" && Within(p, ws) && p != ws {
		return p[len(ws)+1:]
	}
	return p
}

// resolveForWrite is [realPath] for a path that may not exist yet: a
// missing component ends the resolution and the rest is appended
// lexically (nothing below a missing directory can be a link), and a
// dangling final link resolves to its target.
func resolveForWrite(fsys FS, p string) (string, error) {
	return resolve(fsys, p, true)
}

// printable shows a path in a reason line: as it is, or quoted when it
// holds a character a terminal would act on (internal/esc: a control,
// C1, bidi formatting, invalid UTF-8; a newline must not start a second
// line the model would read as ours).
func printable(p string) string {
	if esc.Text(p) != p {
		return strconv.Quote(p)
	}
	return p
}
