// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"github.com/lite-sandbox/lite-sandbox/agents"
)

// addFileRules gives the adapter the session's deny and protect lists
// (the launch's one spec, with what the host adds: core.hooksPath
// targets, a worktree's .git file), for the agent's own rules that
// explain a refused file tool (Claude's permissions.deny). A policy the
// sandbox would reject leaves them empty: opening the session reports
// that error.
func addFileRules(info *agents.Session, ls launchSpec) {
	spec, err := ls.get()
	if err != nil {
		return
	}
	info.Deny = spec.Deny
	for _, pr := range spec.Protect {
		info.Protect = append(info.Protect, pr.Path)
	}
}
