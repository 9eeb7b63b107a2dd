// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"io"

	"github.com/lite-sandbox/lite-sandbox/shims"
)

// reportNested lists the git repositories created or changed inside the
// workspace during the session, on stderr and in the audit log (shown
// by `lite-sandbox log`), one line each with the risk; `run` does the
// same per command ([shims.ReportNested]).
func reportNested(w io.Writer, before map[string]string, ws, sessionDir string, getenv func(string) string) {
	shims.ReportNested(w, before, ws, sessionDir, "in this session", getenv)
}
