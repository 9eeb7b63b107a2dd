// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package pathjudge decides whether an agent's own file tools (Claude's
// Read, Write, Edit, Glob; Codex's view_image; Pi's read) may touch a
// path, with the command sandbox's policy (a [sandbox.Spec]), and
// explains a refusal in one line for the model. It explains; the agent
// ring is the boundary (docs/ring.md; escape class 5, symlinks, in
// docs/security-model.md §5).
package pathjudge

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// Judge decides whether an agent's own file tool may touch a path,
// with the same policy as the command sandbox: writes only inside the
// workspace and never on a protected path, reads never of a
// sandbox.deny path. It explains; the agent ring (or, without it,
// nothing) is the boundary, so a wrong "allowed" here is an unexplained
// failure, never an escape by itself.
type Judge struct {
	Spec sandbox.Spec
	// AgentWrite are further paths the agent's tools may write
	// (agent.write in the user's own config), absolute and clean.
	AgentWrite []string
	// Visible, when not nil, is what the agent ring shows: a read
	// elsewhere (outside the workspace too) is refused, naming
	// agent.read, the key that would grant it.
	Visible []string
	// FS is where links are resolved; nil means [sandbox.OSFS].
	FS sandbox.FS
}

// Verdict is a Judge's answer.
type Verdict struct {
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
func (j Judge) Judge(a sandbox.Access, p, cwd string) Verdict {
	abs, err := j.absolute(p, cwd)
	if err != nil {
		return Verdict{Path: p, Reason: fmt.Sprintf("lite-sandbox: cannot judge the path %s, so it was refused: %v", strconv.Quote(p), err)}
	}
	fsys := j.FS
	if fsys == nil {
		fsys = sandbox.OSFS{}
	}
	real, err := sandbox.ResolveForWrite(fsys, abs)
	if err != nil {
		return Verdict{Path: abs, Reason: fmt.Sprintf("lite-sandbox: cannot resolve %s, so it was refused: %v", esc.Printable(abs), err)}
	}
	v := Verdict{Path: real}
	shown := esc.Printable(real)
	if real != abs {
		shown = fmt.Sprintf("%s (which leads to %s)", esc.Printable(p), esc.Printable(real))
	}
	if d, ok := j.denied(real, a == sandbox.Search); ok {
		how := "lies in"
		if !hostpath.Within(real, d) {
			how = "contains"
		}
		v.Reason = fmt.Sprintf("lite-sandbox: %s %s %s, which is hidden from the agent and its commands (sandbox.deny)", shown, how, esc.Printable(d))
		return v
	}
	if a != sandbox.Write {
		if j.Visible != nil && !hostpath.Within(real, j.Spec.Workspace) && !hostpath.WithinAny(real, j.Visible) {
			v.Reason = fmt.Sprintf("lite-sandbox: %s is not visible to the agent: its ring shows only the workspace, the system, its own state, git identity, tools and caches (to allow: add the path to agent.read in your own config)", shown)
			return v
		}
		v.Allowed = true
		return v
	}
	if pr, ok := j.protected(real); ok {
		v.Reason = fmt.Sprintf("lite-sandbox: %s is protected and read-only (sandbox.protect: %s; a person can remove it with sandbox.unprotect in their own config)", shown, esc.Printable(j.rel(pr)))
		return v
	}
	ws := j.Spec.Workspace
	if ws != "" && hostpath.Within(real, ws) || hostpath.WithinAny(real, j.AgentWrite) {
		v.Allowed = true
		return v
	}
	v.Reason = fmt.Sprintf("lite-sandbox: %s is outside the workspace %s; the agent may write only inside it (to allow: add the path to agent.write in your own config)", shown, esc.Printable(ws))
	return v
}

// absolute expands ~ and makes p absolute against cwd (the workspace
// when cwd is empty), without cleaning: ".." must follow links.
func (j Judge) absolute(p, cwd string) (string, error) {
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
func (j Judge) denied(p string, search bool) (string, bool) {
	for _, d := range j.Spec.Deny {
		if hostpath.Within(p, d) || search && hostpath.Within(d, p) {
			return d, true
		}
	}
	return "", false
}

// protected returns the protected path p is, or lies in.
func (j Judge) protected(p string) (string, bool) {
	for _, pr := range j.Spec.Protect {
		if hostpath.Within(p, pr.Path) {
			return pr.Path, true
		}
	}
	return "", false
}

func (j Judge) rel(p string) string {
	if ws := j.Spec.Workspace; ws != "" && hostpath.Within(p, ws) && p != ws {
		return p[len(ws)+1:]
	}
	return p
}
