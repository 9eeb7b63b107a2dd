// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Home is Codex's state directory: $CODEX_HOME, else ~/.codex.
func Home(s agents.Session) string {
	if d := s.Getenv("CODEX_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(s.Home, ".codex")
}

// State is $CODEX_HOME (sessions, logs, auth.json, caches), with its
// config.toml and hooks.json (both run code: hooks, MCP servers,
// notify) read-only.
func (Agent) State(s agents.Session) agents.State {
	h := Home(s)
	return agents.State{
		Write:       []string{h},
		CreateDirs:  []string{h},
		ReadOnly:    []string{filepath.Join(h, "config.toml"), filepath.Join(h, "hooks.json")},
		Credentials: []string{filepath.Join(h, "auth.json")},
	}
}
