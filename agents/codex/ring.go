// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"path/filepath"
	"regexp"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Home is Codex's state directory: $CODEX_HOME, else ~/.codex.
func Home(s agents.Session) string {
	if d := s.Getenv("CODEX_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(s.Home, ".codex")
}

// dataDirs and keep are what Codex writes as data in $CODEX_HOME
// (observed with 0.171.0 under launch): rollouts, logs, caches, its
// SQLite state (state_5, logs_2, goals_1, memories_1, queue_1,
// thread_history_1 and their -wal and -shm), the prompt history, its
// installation id, auth.json (refreshed). config.toml, hooks.json, .env
// (loaded into every later codex), AGENTS.md, rules/, prompts/, skills/
// are code or instructions, read-only in the ring (Codex reinstalls its
// own skills/.system at every start; in the ring that lands in the
// scratch and is dropped).
var (
	dataDirs = []string{"sessions", "archived_sessions", "log", "cache", "shell_snapshots", "tmp"}
	// keep are the kept files and what of each is checked (escape
	// classes 53, 56): none is code Codex runs; auth.json goes back with
	// its token keys only, the rest after a check of its format.
	keep = []agents.KeptFile{
		{Name: "history.jsonl", Format: agents.JSONLines},
		{Name: "models_cache.json", Format: agents.JSONDoc},
		{Name: "version.json", Format: agents.JSONDoc},
		{Name: "auth.json", Merge: agents.JSONKeys([]string{"OPENAI_API_KEY"}, []string{"tokens"}, []string{"last_refresh"}, []string{"auth_mode"})},
		{Name: "installation_id", Format: agents.Token},
		{Name: ".sandbox_migration", Max: 4096, Format: agents.Opaque},
		{Name: "*.sqlite", Format: agents.Magic("SQLite format 3\x00")},
		{Name: "*.sqlite-wal", Format: agents.Magic("\x37\x7f\x06\x82", "\x37\x7f\x06\x83")},
		{Name: "*.sqlite-shm", Format: agents.Opaque},
	}
)

// envKey finds a provider's env_key in config.toml.
var envKey = regexp.MustCompile(`(?m)^\s*env_key\s*=\s*["']([^"']+)["']`)

// State is $CODEX_HOME as a read-only layer with its data writable, and
// auth.json (refreshed) as the credential; /etc/codex is its system
// configuration.
func (Agent) State(s agents.Session) agents.State {
	h := Home(s)
	st := agents.State{
		Dirs:        []string{h},
		Read:        []string{"/etc/codex"},
		ReadOnly:    []string{filepath.Join(h, "config.toml"), filepath.Join(h, "hooks.json"), filepath.Join(h, ".env"), filepath.Join(h, "AGENTS.md"), filepath.Join(h, "rules") + "/", filepath.Join(h, "prompts") + "/"},
		Credentials: []string{filepath.Join(h, "auth.json")},
		LoginEnv: append([]string{"OPENAI_*", "CODEX_*"},
			agents.ConfigEnv(envKey, filepath.Join(h, "config.toml"), "/etc/codex/config.toml")...),
		CreateDirs: []string{h},
	}
	for _, d := range dataDirs {
		st.Write = append(st.Write, filepath.Join(h, d))
		st.CreateDirs = append(st.CreateDirs, filepath.Join(h, d))
	}
	st.Keep = keep
	return st
}
