// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// configDir is Claude's configuration directory: $CLAUDE_CONFIG_DIR, else
// ~/.claude.
func configDir(s agents.Session) string {
	if d := s.Getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(s.Home, ".claude")
}

// globalConfig is Claude's global state file: ~/.claude.json, or
// .claude.json inside $CLAUDE_CONFIG_DIR when that is set.
func globalConfig(s agents.Session) string {
	if d := s.Getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(filepath.Clean(d), ".claude.json")
	}
	return filepath.Join(s.Home, ".claude.json")
}

// State is what Claude Code writes: its configuration directory
// (sessions, projects, todos, shell snapshots, credentials), the global
// state file and its lock (a directory made by mkdir beside it),
// ~/.claude.lock, its Node cache and ~/.local/state/claude (locks). Its
// settings files, hooks, plugins and status line stay read-only: they
// run code at the next start, with or without lite-sandbox. The global
// state file holds mcpServers (also per project), which launch restores.
func (Agent) State(s agents.Session) agents.State {
	dir := configDir(s)
	glob := globalConfig(s)
	st := agents.State{
		Write: []string{
			dir, glob, glob + ".lock", glob + ".backup",
			filepath.Join(s.Home, ".claude.lock"),
			filepath.Join(s.Home, ".cache", "claude-cli-nodejs"),
			filepath.Join(s.Home, ".cache", "claude"),
			filepath.Join(s.Home, ".local", "state", "claude"),
		},
		ReadOnly: []string{
			filepath.Join(dir, "settings.json"),
			filepath.Join(dir, "settings.local.json"),
			filepath.Join(dir, "hooks") + "/",
			filepath.Join(dir, "plugins") + "/",
			filepath.Join(dir, "statusline.sh"),
		},
		Credentials: []string{filepath.Join(dir, ".credentials.json")},
		// A first run makes both (observed with 2.1.197 in the ring).
		CreateDirs: []string{dir},
		CreateJSON: []string{glob},
		Guard: []agents.GuardedFile{{Path: glob, Keys: [][]string{
			{"mcpServers"},
			{"projects", "*", "mcpServers"},
			{"projects", "*", "enabledMcpjsonServers"},
			{"projects", "*", "enableAllProjectMcpServers"},
		}}},
	}
	if dir != filepath.Join(s.Home, ".claude") {
		st.Write = append(st.Write, dir+".lock")
	}
	return st
}
