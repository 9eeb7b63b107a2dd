// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gemini

import (
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// geminiDir is Gemini's global directory: ~/.gemini (Storage.
// getGlobalGeminiDir; GEMINI_CLI_HOME moves the home it is in).
func geminiDir(s agents.Session) string {
	home := s.Home
	if h := s.Getenv("GEMINI_CLI_HOME"); h != "" && filepath.IsAbs(h) {
		home = filepath.Clean(h)
	}
	return filepath.Join(home, ".gemini")
}

// State is ~/.gemini as a read-only layer with its data writable:
// tmp/ (per-project chats, logs, plans, checkpoints) and the kept
// files. Code and trust stay read-only: settings.json (hooks, MCP
// servers, tools), .env (variables such as NODE_OPTIONS for the next
// start), trustedFolders.json (a trusted folder's .gemini/ is loaded),
// policies/, extensions/, commands/, skills/, agents/, GEMINI.md,
// keybindings.json, history/ (checkpointing's shadow git repositories,
// whose config git runs: not in Write) and tmp/bin/ (the ripgrep Gemini
// runs, inside tmp/).
// Measured with 0.61.0: a run writes projects.json, installation_id,
// history/<project>/.project_root and tmp/<project>/{chats,logs}.
func (Agent) State(s agents.Session) agents.State {
	dir := geminiDir(s)
	j := func(n string) string { return filepath.Join(dir, n) }
	return agents.State{
		Dirs:       []string{dir},
		Write:      []string{j("tmp")},
		CreateDirs: []string{dir, j("tmp")},
		Keep: []agents.KeptFile{
			{Name: "projects.json", Format: agents.JSONDoc},
			// UI state (tips and banners shown).
			{Name: "state.json", Format: agents.JSONDoc},
			{Name: "installation_id", Format: agents.Token},
			{Name: "user_id", Format: agents.Token},
			{Name: "google_accounts.json", Format: agents.JSONDoc},
			{Name: "oauth_creds.json", Format: agents.JSONDoc},
			{Name: "mcp-oauth-tokens.json", Format: agents.JSONDoc},
		},
		ReadOnly: []string{
			j("settings.json"), j(".env"), j("trustedFolders.json"), j("GEMINI.md"), j("keybindings.json"),
			j("policies") + "/", j("extensions") + "/", j("commands") + "/", j("skills") + "/",
			j("agents") + "/", j(filepath.Join("tmp", "bin")) + "/",
		},
		// The system settings (an administrator's) and policies.
		Read:        []string{"/etc/gemini-cli"},
		Credentials: []string{j("oauth_creds.json"), j("google_accounts.json"), j("mcp-oauth-tokens.json")},
		LoginEnv: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL",
			"GOOGLE_GENAI_*", "GOOGLE_CLOUD_*", "GOOGLE_APPLICATION_CREDENTIALS", "GEMINI_MODEL", "GEMINI_CLI_*"},
		Providers: providers(s),
		// What a start leaves beside the kept files, nobody's (#31).
		Scratch: []string{j("history") + "/"},
	}
}

// defaultHosts are what Gemini CLI reaches without a base URL: the
// Gemini API, Vertex AI, Code Assist (the Google login's model) and
// the OAuth login.
var defaultHosts = []string{"generativelanguage.googleapis.com", "aiplatform.googleapis.com", "cloudcode-pa.googleapis.com",
	"oauth2.googleapis.com", "accounts.google.com", "www.googleapis.com"}

// providers are the hosts of the agent ring's proxy (docs/ring.md "The
// network"): the launcher's GOOGLE_GEMINI_BASE_URL or
// GOOGLE_VERTEX_BASE_URL when set, else Google's own.
func providers(s agents.Session) []string {
	var out []string
	for _, n := range []string{"GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL"} {
		if u := s.Getenv(n); u != "" {
			out = append(out, u)
		}
	}
	if out != nil {
		return out
	}
	return defaultHosts
}
