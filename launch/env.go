// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// agentEnv returns base with the variables that route an agent's shell
// commands through the session's shim: SHELL and [contract.EnvShim] are
// <dir>/bin/bash, [contract.EnvSession] is dir. Earlier routing variables
// (these three, and a session-less shim's workspace and mode) are
// dropped, so that the agent cannot see two.
func agentEnv(base []string, dir string) []string {
	info := agents.Session{Dir: dir, Shim: contract.Shim(dir)}
	return applyEnv(base, routingEnv(info, "", "", true), agents.Plan{})
}
