// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package agents defines what an agent adapter is ([Agent], [Info]). Each
// agent's adapter (its CLI, routing, generated configuration) lives in a
// package of its own below this one, and package
// [github.com/lite-sandbox/lite-sandbox/agents/registry] lists them.
package agents

import (
	"fmt"
	"os/exec"
)

// Info describes one supported agent CLI.
type Info struct {
	Name    string // what `lite-sandbox launch NAME` takes
	Binary  string // the executable looked up on PATH
	Install string // the command that installs it
}

// Path finds the agent's binary on PATH.
func (a Info) Path() (string, error) {
	p, err := exec.LookPath(a.Binary)
	if err != nil {
		return "", fmt.Errorf("%s is not installed (install it with: %s)", a.Binary, a.Install)
	}
	return p, nil
}
