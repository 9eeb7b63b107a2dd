// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

// State is what an agent itself writes and reads on the host, for the
// agent ring (`launch` starts the agent in a mount namespace where the
// host is read-only but for these). Paths are absolute; missing ones are
// skipped.
type State struct {
	// Dirs are the agent's state directories. In the ring their entries
	// are visible read-only and a new name made in them lands in the
	// session's scratch (named at the end): everything that is not
	// listed in Write, code-bearing configuration above all (settings,
	// hooks, agents, commands, skills, plugins, extensions), is
	// read-only by construction, whatever path or link leads there.
	Dirs []string
	// Write lists the data the agent writes (sessions, history, logs,
	// caches, todos): read-write in the ring. An allow-list: name only
	// what carries no code the next start runs.
	Write []string
	// Keep are the data files directly in a Dirs entry, as base-name
	// globs (history.jsonl, *.sqlite, auth.json): they are copied into
	// the layer's scratch before the agent starts, so that it may
	// replace them atomically, and copied back after every process of
	// the ring is gone, with any new regular file of such a name; never
	// a link, never another name.
	Keep []string
	// Read lists further read-only paths the agent needs (its system
	// configuration, a native install outside the PATH's directories).
	Read []string
	// SessionWrite lists directories below the session directory the
	// agent writes (Pi's agent dir, Crush's -D dir); the rest of the
	// session directory is read-only in the ring.
	SessionWrite []string
	// ReadOnly lists code-carrying configuration that must stay
	// read-only even inside a writable path (a user who grants a whole
	// state directory with agent.write): read-only, and a read-only
	// placeholder when missing. A trailing "/" marks a directory.
	ReadOnly []string
	// Credentials lists the files the agent needs to log in: readable
	// and writable (token refresh), even inside a sandbox.deny path.
	Credentials []string
	// LoginEnv are the environment variables (globs) the agent logs in
	// or reaches its model with: they stay in its environment although
	// sandbox.secret_env matches them (everything else secret_env
	// matches is dropped from the ring, as from commands).
	LoginEnv []string
	// CreateDirs are directories of Write that launch makes (mode 0700)
	// before the ring starts when they are missing: the agent cannot
	// create them itself (a new name would land in the scratch).
	CreateDirs []string
	// CreateJSON are files of Write that launch creates holding "{}"
	// when missing, for the same reason; CreateFiles are created empty.
	CreateJSON  []string
	CreateFiles []string
	// Guard lists files the agent must write that also carry code in
	// some keys (Claude's ~/.claude.json holds mcpServers): launch
	// restores those keys after the session.
	Guard []GuardedFile
}

// GuardedFile is a JSON file whose code-carrying keys launch restores.
type GuardedFile struct {
	Path string
	// Keys are paths of object keys; "*" matches every key at its level
	// (["projects", "*", "mcpServers"]).
	Keys [][]string
}

// StateOwner is implemented by adapters that know their agent's state
// for the ring.
type StateOwner interface {
	State(s Session) State
}
