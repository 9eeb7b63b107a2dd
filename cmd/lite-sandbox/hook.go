// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"os"

	"github.com/lite-sandbox/lite-sandbox/shims"
)

// HookCmd is `lite-sandbox hook NAME` (an agent of registry.HookNames:
// claude, codex, crush, pi): the PreToolUse hook that `lite-sandbox
// launch` installs. It reads the hook's JSON on stdin and answers with a
// rewrite through the session's shim, or a denial with the validator's
// reason; for the agents' file tools (agents.FileHooker) with the path
// judge's reason. In a session the session's judge answers it
// (shims.Hook); in the agent ring the hook never reaches this command,
// since the shim stands in for the shell that runs it.
type HookCmd struct {
	Agent string `arg:"" help:"${hook_agents}."`
}

// Run answers one hook call.
func (c *HookCmd) Run(g *Globals, io stdio) error {
	return shims.Hook(c.Agent, g.Config, os.Stdin, io.out, io.err)
}
