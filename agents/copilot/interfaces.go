// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package copilot

import "github.com/lite-sandbox/lite-sandbox/agents"

// The optional interfaces this adapter implements, checked by the
// compiler: callers find them by type assertion, so a misspelt or
// mistyped method would otherwise drop the feature silently
// (AGENTS.md, "Add an agent").
var (
	_ agents.Agent      = Agent{}
	_ agents.Resumer    = Agent{}
	_ agents.StateOwner = Agent{}
)
