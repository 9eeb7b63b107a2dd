// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"path/filepath"
	"strings"
)

// AgentEnv returns base with the variables that route an agent's shell
// commands through the session's shim: SHELL and [EnvShim] are
// <dir>/bin/bash, [EnvSession] is dir. Earlier values of the three are
// dropped, so that the agent cannot see two.
func AgentEnv(base []string, dir string) []string {
	shim := filepath.Join(dir, ShimPath)
	out := make([]string, 0, len(base)+3)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "SHELL", EnvShim, EnvSession:
			continue
		}
		out = append(out, kv)
	}
	return append(out, "SHELL="+shim, EnvShim+"="+shim, EnvSession+"="+dir)
}
