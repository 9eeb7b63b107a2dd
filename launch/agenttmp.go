// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// agentTmpDir creates the agent's private temp dir (Claude's
// CLAUDE_CODE_TMPDIR, where its wrapper's cwd file lives). It is the
// launcher's, mode 0700, and never mounted into the command sandbox
// (whose /tmp is a tmpfs of its own): the shim opens the cwd file here
// itself and hands the command only a descriptor, so no sandboxed
// command can plant a link or a file that the agent reads back on the
// host. Inside the agent ring it must be writable for the agent.
func agentTmpDir() (string, error) {
	d, err := os.MkdirTemp("", "lite-sandbox-agent-")
	if err != nil {
		return "", fmt.Errorf("launch: agent temp dir: %w", err)
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	}
	return d, nil
}

// auditDir is the launcher's audit log directory, or "" when the log is
// off (LITE_SANDBOX_NO_AUDIT=1, as for the shim) or has no place.
func auditDir() string {
	if os.Getenv(contract.EnvNoAudit) == "1" {
		return ""
	}
	d, err := audit.Dir(os.Getenv)
	if err != nil {
		return ""
	}
	return d
}
