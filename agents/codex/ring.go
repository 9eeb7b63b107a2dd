// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"path/filepath"
	"regexp"
	"strings"

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
// sqliteDir is the session's directory of Codex's SQLite state in the
// Landlock ring (CODEX_SQLITE_HOME).
const sqliteDir = "codex-sqlite"

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

// argEnvKey finds an env_key in the value of a -c/--config override:
// "model_providers.x.env_key=MY_KEY" (a bare or quoted string) or an
// inline table, 'model_providers.x={..., env_key="MY_KEY"}' (#31).
var argEnvKey = regexp.MustCompile(`(?:^|[.{,\s])env_key\s*=\s*["']?([A-Za-z_][A-Za-z0-9_]*)`)

// argsEnv returns the variables the user's own -c/--config overrides
// name as a provider's key, for LoginEnv: a key given on the command
// line (launch codex -- -c model_providers.x.env_key=MY_KEY) must reach
// Codex as one in config.toml does. Only names, from the user's own
// arguments; the value stays in the launcher's environment.
func argsEnv(args []string) []string {
	var out []string
	for _, v := range configArgs(args) {
		for _, m := range argEnvKey.FindAllStringSubmatch(v, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// configArgs are the values of the -c/--config overrides in args, up to
// a "--".
func configArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a, v := args[i], ""
		switch {
		case a == "--":
			return out
		case (a == "-c" || a == "--config") && i+1 < len(args):
			i++
			v = args[i]
		case strings.HasPrefix(a, "--config="):
			v = strings.TrimPrefix(a, "--config=")
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			v = a[2:]
		default:
			continue
		}
		out = append(out, v)
	}
	return out
}

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
			append(agents.ConfigEnv(envKey, filepath.Join(h, "config.toml"), "/etc/codex/config.toml"), argsEnv(s.Args)...)...),
		CreateDirs: []string{h},
		Providers:  providers(s, h),
		// Codex reinstalls its own skills at every start and makes a
		// lock directory for its thread writer (0.171.0, measured):
		// dropped with the scratch, without a line (#31).
		Scratch: []string{filepath.Join(h, "skills", ".system") + "/", filepath.Join(h, "thread-writer-locks") + "/"},
		// The Landlock ring: Codex opens installation_id read-write at
		// every start (an id it sends, no code) and takes its threads'
		// locks in thread-writer-locks; it creates its SQLite state
		// beside them, which goes to the session instead.
		SessionWrite:  []string{filepath.Join(s.Dir, sqliteDir)},
		LandlockEnv:   []string{"CODEX_SQLITE_HOME=" + filepath.Join(s.Dir, sqliteDir)},
		LandlockWrite: []string{filepath.Join(h, "installation_id"), filepath.Join(h, "thread-writer-locks") + "/"},
	}
	for _, d := range dataDirs {
		st.Write = append(st.Write, filepath.Join(h, d))
		st.CreateDirs = append(st.CreateDirs, filepath.Join(h, d))
	}
	st.Keep = keep
	return st
}

// baseURL finds a provider's base_url in config.toml, argBaseURL one in
// a -c/--config override (a dotted key or an inline table).
var (
	baseURL    = regexp.MustCompile(`(?m)^\s*(?:model_providers\.[A-Za-z0-9_-]+\.)?base_url\s*=\s*["']([^"']+)["']`)
	argBaseURL = regexp.MustCompile(`(?:^|[.{,\s])base_url\s*=\s*["']?([^"',}\s]+)`)
)

// defaultHosts are OpenAI's API and the ChatGPT login and backend.
var defaultHosts = []string{"api.openai.com", "chatgpt.com", "auth.openai.com"}

// providers are the hosts of the agent ring's proxy (docs/ring.md "The
// network"): every base_url of the user's config.toml, the system's and
// the command line's, OPENAI_BASE_URL, and OpenAI's own hosts.
func providers(s agents.Session, home string) []string {
	out := agents.ConfigURLs(baseURL, filepath.Join(home, "config.toml"), "/etc/codex/config.toml")
	for _, v := range configArgs(s.Args) {
		for _, m := range argBaseURL.FindAllStringSubmatch(v, -1) {
			out = append(out, m[1])
		}
	}
	if u := s.Getenv("OPENAI_BASE_URL"); u != "" {
		out = append(out, u)
	}
	return append(out, defaultHosts...)
}
