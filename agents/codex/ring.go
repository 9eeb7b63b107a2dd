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

// dataDirs and dataFiles are what Codex writes as data in $CODEX_HOME
// (observed with 0.171.0 under launch): rollouts, logs, caches, its
// state databases and the prompt history. config.toml, hooks.json,
// .env (loaded into every later codex), AGENTS.md, rules/, prompts/,
// skills/ are code or instructions, read-only in the ring.
var (
	dataDirs  = []string{"sessions", "archived_sessions", "log", "cache", "shell_snapshots", "tmp"}
	dataFiles = []string{"history.jsonl", "models_cache.json", "version.json"}
)

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
		LoginEnv:    []string{"OPENAI_*", "CODEX_*"},
		CreateDirs:  []string{h},
	}
	for _, d := range dataDirs {
		st.Write = append(st.Write, filepath.Join(h, d))
		st.CreateDirs = append(st.CreateDirs, filepath.Join(h, d))
	}
	for _, f := range dataFiles {
		st.Write = append(st.Write, filepath.Join(h, f))
	}
	// Its state databases (state_5.sqlite and their -wal/-shm) are made
	// and renamed by Codex itself; they are data.
	st.Write = append(st.Write, st.Credentials...)
	return st
}
