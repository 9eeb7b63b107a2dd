// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"io"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// nestedRule is the audit log's rule id of a nested-repository note.
const nestedRule = "git.nested-repo"

// reportNested lists the git repositories created or changed inside the
// workspace during the session, on stderr and in the audit log (shown
// by `lite-sandbox log`), one line each with the risk.
func reportNested(w io.Writer, before map[string]string, ws, sessionDir string, getenv func(string) string) {
	if before == nil {
		return
	}
	found := sandbox.NewGitDirs(before, sandbox.NestedGitDirs(ws))
	if len(found) == 0 {
		return
	}
	dir, derr := audit.Dir(getenv)
	for _, rel := range found {
		esc.Fprintf(w, "lite-sandbox: git repository created or changed in this session: %s: %s\n", rel, sandbox.NestedGitRisk)
		if derr != nil || getenv("LITE_SANDBOX_NO_AUDIT") == "1" {
			continue
		}
		audit.Append(dir, audit.Record{Time: time.Now(), Session: filepath.Base(sessionDir), Workspace: ws,
			Command:  "nested git repository " + rel + ": " + sandbox.NestedGitRisk,
			Decision: "note", Rule: nestedRule, Status: -1})
	}
}
