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
	// Keep are the data files directly in a Dirs entry, each a base-name
	// glob with what of it is data (history.jsonl, *.sqlite, auth.json):
	// they are copied into the layer's scratch before the agent starts,
	// so that it may replace them atomically, and after every process of
	// the ring is gone what its check lets through goes back, with any
	// new regular file of such a name; never a link, never another name,
	// never more than its size bound, always in the host file's mode
	// (docs/ring.md "The agent's state", escape classes 53 to 56).
	Keep []KeptFile
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
	// Providers are the endpoints the agent reaches its model and its
	// login at (URLs, or bare host names for https): the agent ring's
	// proxy lets the agent reach these and agent.allow_domains, nothing
	// else (docs/ring.md "The network"). Taken from the launcher's
	// environment (ANTHROPIC_BASE_URL), the user's own configuration
	// (Codex's base_url, Pi's and Crush's providers) and the agent's
	// default hosts; never from a project's files.
	Providers []string
	// CreateDirs are directories of Write that launch makes (mode 0700)
	// before the ring starts when they are missing: the agent cannot
	// create them itself (a new name would land in the scratch).
	CreateDirs []string
	// CreateJSON are files of Write that launch creates holding "{}"
	// when missing, for the same reason; CreateFiles are created empty.
	CreateJSON  []string
	CreateFiles []string
	// Guard lists files the agent must write on the host during the
	// session that also carry code or trust (Claude's ~/.claude.json
	// holds mcpServers and the trust flags): launch restores each whole
	// after the session but for its Data keys, also after a launcher
	// that died (a journal replayed at the next launch or doctor).
	Guard []GuardedFile
	// Scratch lists what the agent is known to leave in the ring's
	// scratch at every start and that carries nothing of the user's
	// (Claude's ~/.claude/.last-cleanup, the skills Codex reinstalls):
	// still dropped with the scratch, but not named in the closing line,
	// which would otherwise bury the names that matter (#31). A trailing
	// "/" marks a directory and what is below it.
	Scratch []string
	// LandlockEnv and LandlockWrite are what the agent needs in the
	// Landlock ring only (#28), which has no scratch copy to give a kept
	// file and no layer to take a new name in a state directory:
	// variables (NAME=VALUE) that move state the agent must create
	// there to a SessionWrite directory (Codex's SQLite state: not
	// kept), and kept files it must open for writing, granted
	// read-write in place, created empty first when missing (a
	// directory, with a trailing "/", made 0700). Name only
	// data no program runs or trusts: they are written unchecked
	// (docs/ring.md "The Landlock ring").
	LandlockEnv   []string
	LandlockWrite []string
}

// GuardedFile is a JSON file launch restores after the session but for
// the keys the agent changes as data (an allow-list, escape class 54).
type GuardedFile struct {
	Path string
	// Data are paths of object keys the session may change; each element
	// is a glob of one key ("*" every key, "last*"):
	// ["projects", "*", "last*"]. Everything else goes back as it was.
	Data [][]string
}

// StateOwner is implemented by adapters that know their agent's state
// for the ring.
type StateOwner interface {
	State(s Session) State
}
