// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"os"
	"path/filepath"
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
