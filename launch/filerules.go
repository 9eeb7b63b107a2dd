// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// addFileRules gives the adapter the session's deny and protect lists,
// for the agent's own rules that explain a refused file tool (Claude's
// permissions.deny). A policy the sandbox would reject leaves them
// empty: opening the session reports that error.
func addFileRules(info *agents.Session, p *policy.Policy) {
	if p == nil {
		return
	}
	spec, err := p.SandboxSpec(info.Workspace, info.Home, "")
	if err != nil {
		return
	}
	sandbox.DetectHost(&spec) // core.hooksPath targets, a worktree's .git file
	info.Deny = spec.Deny
	for _, pr := range spec.Protect {
		info.Protect = append(info.Protect, pr.Path)
	}
}
