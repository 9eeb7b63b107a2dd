// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
)

// fileInput is the part of Codex's PreToolUse input the file judge reads
// (measured on 0.171: apply_patch sends {"command": <patch>}, view_image
// {"path": ...}; both with the session's cwd).
type fileInput struct {
	ToolName  string `json:"tool_name"`
	Cwd       string `json:"cwd"`
	ToolInput struct {
		Command *string `json:"command"`
		Path    *string `json:"path"`
		Shell   *string `json:"shell"`
	} `json:"tool_input"`
}

// HookFiles is Hook plus the file tools: every path of an apply_patch
// (Add, Update, Delete, Move to) is judged as a write, view_image's path
// as a read, each relative to the hook's cwd; the first refusal denies
// the whole call with the judge's reason, which the model sees. A patch
// that does not parse is denied. Shell calls are routed as by Hook.
//
// Routing does not depend on this hook answering last: Codex runs
// matching hooks side by side and the last answer wins, so a user's (or
// a trusted repository's) hook answering after ours can replace our
// rewrite. In the agent ring every shell binary is the shim, so the
// command that hook chose still runs through the validator and the
// command sandbox; our rewrite only makes the route explicit and the
// denial reason reach the model.
func (a Agent) HookFiles(in []byte, check agents.Checker, judge agents.PathChecker, shim string) ([]byte, int) {
	var h fileInput
	if err := json.Unmarshal(in, &h); err != nil {
		return deny("lite-sandbox: the hook input is not valid JSON; the call was not run: " + err.Error())
	}
	switch h.ToolName {
	case "apply_patch":
		if h.ToolInput.Command == nil {
			return deny("lite-sandbox: an apply_patch call without a patch; not applied")
		}
		paths, err := patchPaths(*h.ToolInput.Command)
		if err != nil {
			return deny("lite-sandbox: the patch could not be read, so it was not applied: " + err.Error())
		}
		for _, p := range paths {
			if v := judge(agents.FileWrite, p, h.Cwd); !v.Allowed {
				return deny(v.Message + "; the patch was not applied")
			}
		}
		return nil, 0
	case "view_image":
		if h.ToolInput.Path == nil {
			return deny("lite-sandbox: a view_image call without a path; refused")
		}
		if v := judge(agents.FileRead, *h.ToolInput.Path, h.Cwd); !v.Allowed {
			return deny(v.Message)
		}
		return nil, 0
	case "Bash":
		// 0.171 sends no "shell" (a model-chosen interpreter such as
		// python3 is replaced by /bin/sh, measured); should a later
		// version send it, a shell that is not a shell is refused.
		if sh := h.ToolInput.Shell; sh != nil && *sh != "" && !isShell(*sh) {
			return deny(fmt.Sprintf("lite-sandbox: %q is not a shell; commands run only through sh or bash (omit \"shell\")", *sh))
		}
	}
	return a.Hook(in, check, shim)
}

// isShell reports whether a model-chosen shell is one the shim stands in
// for (internal/shellname).
func isShell(sh string) bool {
	return shellname.Is(strings.TrimSuffix(path.Base(sh), ".exe"))
}

// patchPaths returns every path an apply_patch envelope touches, in
// order: "*** Add File: P", "*** Update File: P", "*** Delete File: P"
// and "*** Move to: P". The envelope must start with "*** Begin Patch"
// and end with "*** End Patch"; any other "*** " line, or an empty
// path, is an error (fail closed: a patch we cannot read is one Codex
// might read differently).
func patchPaths(patch string) ([]string, error) {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != "*** Begin Patch" || strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return nil, fmt.Errorf("it does not start with *** Begin Patch and end with *** End Patch")
	}
	var paths []string
	for i, l := range lines[1 : len(lines)-1] {
		// A header with leading blanks still counts (a lenient parser
		// may take it); an unknown one at the start of a line is an
		// error; a context line (" *** text") is content.
		t := strings.TrimSpace(l)
		var p string
		switch {
		case strings.HasPrefix(t, "*** Add File:"):
			p = t[len("*** Add File:"):]
		case strings.HasPrefix(t, "*** Update File:"):
			p = t[len("*** Update File:"):]
		case strings.HasPrefix(t, "*** Delete File:"):
			p = t[len("*** Delete File:"):]
		case strings.HasPrefix(t, "*** Move to:"):
			p = t[len("*** Move to:"):]
		case t == "*** End of File" || !strings.HasPrefix(l, "***"):
			continue
		default:
			return nil, fmt.Errorf("line %d: unknown header %q", i+2, t)
		}
		if p = strings.TrimSpace(p); p == "" {
			return nil, fmt.Errorf("line %d: %q names no path", i+2, t)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
