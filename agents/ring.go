// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

// State is what an agent itself writes and reads on the host, for the
// agent ring (`launch` starts the agent in a mount namespace where the
// host is read-only but for these). Paths are absolute; missing ones are
// skipped.
type State struct {
	// Write lists the agent's own state: read-write in the ring.
	Write []string
	// SessionWrite lists directories below the session directory the
	// agent writes (Pi's agent dir, Crush's -D dir); the rest of the
	// session directory is read-only in the ring.
	SessionWrite []string
	// ReadOnly lists code-carrying configuration inside Write paths that
	// the agent does not need to write (settings with hooks, plugins):
	// read-only, and a read-only placeholder when missing. A trailing
	// "/" marks a directory.
	ReadOnly []string
	// Credentials lists the files the agent needs to log in: readable
	// (and writable, for token refresh) even inside a sandbox.deny path.
	Credentials []string
	// CreateDirs are directories of Write that launch makes (mode 0700)
	// before the ring starts when they are missing: the agent cannot
	// create them itself in the read-only host.
	CreateDirs []string
	// CreateJSON are files of Write that launch creates holding "{}"
	// when missing, for the same reason.
	CreateJSON []string
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
