// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package opencode

import (
	"path/filepath"
	"regexp"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// xdg is $NAME when absolute, else ~/<def>, and opencode's directory
// in it.
func xdg(s agents.Session, name, def string) string {
	base := s.Getenv(name)
	if !filepath.IsAbs(base) {
		base = filepath.Join(s.Home, def)
	}
	return filepath.Join(filepath.Clean(base), "opencode")
}

// dirs are opencode's four directories (xdg-basedir, as its
// Global.Path): config, data, state and cache.
func dirs(s agents.Session) (config, data, state, cache string) {
	return xdg(s, "XDG_CONFIG_HOME", ".config"), xdg(s, "XDG_DATA_HOME", ".local/share"),
		xdg(s, "XDG_STATE_HOME", ".local/state"), xdg(s, "XDG_CACHE_HOME", ".cache")
}

// State is opencode's four directories as read-only layers with their
// data writable. Measured with 1.18.33 (a run under launch and one on
// the host): a start writes data/opencode.db (SQLite, with -wal and
// -shm: sessions, messages), data/log/, data/storage/, state/locks/,
// state/model.json, state/prompt-history.jsonl, and tries to write config/.gitignore and
// install @opencode-ai/plugin into every config directory (package.json,
// node_modules: code, which lands in the scratch and is dropped).
// Code and trust stay read-only: config/ whole (opencode.json(c),
// plugins/, agents/, commands/, modes/, tools/, node_modules/),
// data/snapshot/ (shadow git repositories whose config git runs),
// data/bin/ and cache/bin/ (the ripgrep and language servers it runs),
// cache/node_modules/ (npm plugins and providers it loads).
func (Agent) State(s agents.Session) agents.State {
	config, data, state, cache := dirs(s)
	d := func(n string) string { return filepath.Join(data, n) }
	return agents.State{
		Dirs:       []string{config, data, state, cache},
		Write:      []string{d("log"), d("storage"), d("tool-output"), filepath.Join(state, "locks")},
		CreateDirs: []string{data, d("log"), d("storage"), state, filepath.Join(state, "locks")},
		Keep: []agents.KeptFile{
			{Name: "opencode.db", Format: agents.Magic("SQLite format 3\x00")},
			{Name: "opencode.db-wal", Format: agents.Magic("\x37\x7f\x06\x82", "\x37\x7f\x06\x83")},
			{Name: "opencode.db-shm", Format: agents.Opaque},
			{Name: "auth.json", Format: agents.JSONDoc},
			{Name: "mcp-auth.json", Format: agents.JSONDoc},
			// cache/: the models list it fetched.
			{Name: "models*.json", Format: agents.JSONDoc},
			{Name: "version", Format: agents.Token},
			// state/: the chosen model, the TUI's key-value store, the
			// prompt history.
			{Name: "model.json", Format: agents.JSONDoc},
			{Name: "kv.json", Format: agents.JSONDoc},
			{Name: "prompt-history.jsonl", Format: agents.JSONLines},
			{Name: "frecency.jsonl", Format: agents.JSONLines},
		},
		ReadOnly: []string{
			filepath.Join(config, "opencode.json"), filepath.Join(config, "opencode.jsonc"), filepath.Join(config, "config.json"),
			filepath.Join(config, "tui.json"), filepath.Join(config, "AGENTS.md"),
			filepath.Join(config, "plugin") + "/", filepath.Join(config, "plugins") + "/",
			d("snapshot") + "/", d("bin") + "/", filepath.Join(cache, "bin") + "/", filepath.Join(cache, "node_modules") + "/",
		},
		// ~/.opencode is a config directory too (plugins, agents,
		// commands), read where it is.
		Read:        []string{filepath.Join(s.Home, ".opencode")},
		Credentials: []string{d("auth.json"), d("mcp-auth.json")},
		LoginEnv:    append(loginEnv, agents.ConfigEnv(envRef, configFiles(config)...)...),
		Providers:   append(agents.ConfigURLs(baseURL, configFiles(config)...), defaultHosts...),
		// What a start leaves beside the kept files, nobody's (#31).
		Scratch: []string{
			filepath.Join(config, ".gitignore"), filepath.Join(config, "package.json"), filepath.Join(config, "package-lock.json"),
			filepath.Join(config, "bun.lock"), filepath.Join(config, "node_modules") + "/", d("repos") + "/", d("snapshot") + "/",
			filepath.Join(cache, "bin") + "/",
		},
	}
}

// configFiles are the user's own config files (never a project's).
func configFiles(config string) []string {
	return []string{filepath.Join(config, "opencode.json"), filepath.Join(config, "opencode.jsonc"), filepath.Join(config, "config.json")}
}

// loginEnv are the variables opencode's providers read (its models
// list's "env" of each provider).
var loginEnv = []string{"ANTHROPIC_*", "OPENAI_*", "GEMINI_API_KEY", "GOOGLE_*", "OPENROUTER_API_KEY", "GROQ_API_KEY",
	"XAI_API_KEY", "DEEPSEEK_API_KEY", "MISTRAL_API_KEY", "AZURE_*", "AWS_*", "VERTEX_*", "GITHUB_TOKEN", "OPENCODE_API_KEY"}

// envRef finds "{env:NAME}" in opencode.json (a provider's apiKey).
var envRef = regexp.MustCompile(`\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)

// baseURL finds a provider's baseURL in opencode.json.
var baseURL = regexp.MustCompile(`"baseURL"\s*:\s*"([^"]+)"`)

// defaultHosts are the APIs of opencode's common providers, its own
// (opencode.ai: Zen and the console) and its models list, for the
// agent ring's proxy (docs/ring.md "The network").
var defaultHosts = []string{"opencode.ai", "models.dev", "models.opencode.ai", "api.anthropic.com", "api.openai.com",
	"generativelanguage.googleapis.com", "openrouter.ai", "api.groq.com", "api.x.ai", "api.deepseek.com", "api.mistral.ai"}
