// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/agents/codex"
	"github.com/lite-sandbox/lite-sandbox/agents/crush"
	"github.com/lite-sandbox/lite-sandbox/agents/pi"
)

// Adapters are the agents `lite-sandbox launch NAME` starts, by name.
var Adapters = map[string]agents.Agent{
	"claude": claude.New(),
	"codex":  codex.New(),
	"crush":  crush.New(),
	"pi":     pi.New(),
}

// Adapter returns the adapter of a known agent; the error lists them.
func Adapter(name string) (agents.Agent, error) {
	if a, ok := Adapters[name]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(agents.Names(), ", "))
}
