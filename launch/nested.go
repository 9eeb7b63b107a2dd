// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"io"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims"
)

// reportNested lists the git repositories created or changed inside the
// workspace during the session, on stderr and in the audit log (shown
// by `lite-sandbox log`), one line each with the risk; `run` does the
// same per command ([shims.ReportNested]).
func reportNested(w io.Writer, before map[string]string, ws, sessionDir string, getenv func(string) string) {
	shims.ReportNested(w, before, ws, sessionDir, "in this session", getenv)
}

// reportQuarantined says which protected paths the guard of a session's
// sandbox moved away (docs/confinement.md, "Protected paths").
func reportQuarantined(w io.Writer, p *sandbox.Prepared) {
	for _, q := range p.Quarantined() {
		fmt.Fprintln(w, "lite-sandbox: "+q.String())
	}
}
