// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"os"
	"path/filepath"
)

// ScriptsAgentsBin returns where scripts/agents (run by scripts/test)
// installed binary, or "": it installs the pinned CLIs into a cache
// directory ($LITE_SANDBOX_AGENTS_DIR, ~/.cache/lite-sandbox/agents, or
// /var/cache/lite-sandbox/agents when scripts/test runs as root) and
// puts nothing on PATH, so that doctor can say where they are and what
// to add to PATH instead of "not installed" (issue #31).
func ScriptsAgentsBin(binary string, getenv func(string) string, home string) string {
	var dirs []string
	if d := getenv("LITE_SANDBOX_AGENTS_DIR"); filepath.IsAbs(d) {
		dirs = append(dirs, d)
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".cache", "lite-sandbox", "agents"))
	}
	dirs = append(dirs, "/var/cache/lite-sandbox/agents")
	for _, d := range dirs {
		p := filepath.Join(d, "node_modules", ".bin", binary)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
