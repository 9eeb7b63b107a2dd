// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package agents knows the agent CLIs lite-sandbox can launch: their
// binaries and how to install them. Each agent's adapter (routing,
// generated configuration) lives in a package of its own below this one.
package agents

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// Info describes one supported agent CLI.
type Info struct {
	Name    string // what `lite-sandbox launch NAME` takes
	Binary  string // the executable looked up on PATH
	Install string // the command that installs it
}

// Known lists the supported agents, in the order doctor reports them.
var Known = []Info{
	{Name: "claude", Binary: "claude", Install: "npm install -g @anthropic-ai/claude-code"},
	{Name: "codex", Binary: "codex", Install: "npm install -g @openai/codex"},
	{Name: "crush", Binary: "crush", Install: "npm install -g @charmland/crush"},
	{Name: "pi", Binary: "pi", Install: "npm install -g @earendil-works/pi-coding-agent"},
}

// Lookup finds an agent by name; the error lists the known names.
func Lookup(name string) (Info, error) {
	i := slices.IndexFunc(Known, func(a Info) bool { return a.Name == name })
	if i < 0 {
		return Info{}, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return Known[i], nil
}

// Names returns the known agents' names.
func Names() []string {
	n := make([]string, len(Known))
	for i, a := range Known {
		n[i] = a.Name
	}
	return n
}

// Path finds the agent's binary on PATH.
func (a Info) Path() (string, error) {
	p, err := exec.LookPath(a.Binary)
	if err != nil {
		return "", fmt.Errorf("%s is not installed (install it with: %s)", a.Binary, a.Install)
	}
	return p, nil
}
