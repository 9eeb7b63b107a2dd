// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"io"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/sandbox/git"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// NestedRule is the audit log's rule id of a nested-repository note.
const NestedRule = "git.nested-repo"

// ReportNested lists the git repositories created or changed inside the
// workspace ws since before (a [git.Nested] of it), on w and
// in the audit log (shown by `lite-sandbox log`), one line each with the
// risk. scope says when ("in this session", "by this command");
// sessionDir is the session's directory, "" for a per-command `run`. A
// session and `run` share it (escape class 61: a nested repository's
// config and hooks were written inside, and the host's git runs them).
func ReportNested(w io.Writer, before map[string]string, ws, sessionDir, scope string, getenv func(string) string) {
	if before == nil {
		return
	}
	found := git.Changed(before, git.Nested(ws))
	if len(found) == 0 {
		return
	}
	dir, derr := audit.Dir(getenv)
	session := ""
	if sessionDir != "" {
		session = filepath.Base(sessionDir)
	}
	for _, rel := range found {
		esc.Fprintf(w, "lite-sandbox: git repository created or changed %s: %s: %s\n", scope, rel, git.NestedRisk)
		if derr != nil || getenv(contract.EnvNoAudit) == "1" {
			continue
		}
		audit.Append(dir, audit.Record{Time: time.Now(), Session: session, Workspace: ws,
			Command:  "nested git repository " + rel + ": " + git.NestedRisk,
			Decision: "note", Rule: NestedRule, Status: -1})
	}
}
