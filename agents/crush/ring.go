// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package crush

import (
	"path/filepath"
	"regexp"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// State is the per-session data directory (-D, below the session), the
// global data directory ($CRUSH_GLOBAL_DATA, else
// $XDG_DATA_HOME/crush, else ~/.local/share/crush) and the global config
// directory, whose crush.json and crushrc (code: hooks, MCP and LSP
// commands, shell lines) stay read-only. Designed from Crush's config
// loader; no crush binary ran here.
func (Agent) State(s agents.Session) agents.State {
	data := s.Getenv("CRUSH_GLOBAL_DATA")
	if data == "" {
		base := s.Getenv("XDG_DATA_HOME")
		if base == "" {
			base = filepath.Join(s.Home, ".local", "share")
		}
		data = filepath.Join(base, "crush")
	}
	conf := s.Getenv("CRUSH_GLOBAL_CONFIG")
	if conf == "" {
		base := s.Getenv("XDG_CONFIG_HOME")
		if base == "" {
			base = filepath.Join(s.Home, ".config")
		}
		conf = filepath.Join(base, "crush")
	}
	login := agents.ConfigEnv(dollarVar, filepath.Join(conf, "crush.json"), filepath.Join(data, "crush.json"))
	// Both are read-only layers: the data directory's crush.json is a
	// config Crush merges (MCP and LSP commands), so only its provider
	// cache and logs are data. Designed from Crush's loader, not run.
	st := agents.State{
		Dirs:         []string{data, conf},
		SessionWrite: []string{dataDir(s)},
		Write:        []string{filepath.Join(data, "logs")},
		// The provider cache, fetched by Crush: one JSON document.
		Keep: []agents.KeptFile{{Name: "providers.json", Format: agents.JSONDoc}},
		LoginEnv: []string{"ANTHROPIC_*", "OPENAI_*", "GEMINI_API_KEY", "GOOGLE_*", "GROQ_API_KEY", "XAI_API_KEY",
			"OPENROUTER_API_KEY", "AZURE_OPENAI_*", "AWS_*", "VERTEXAI_*", "CRUSH_*"},
		ReadOnly: []string{
			filepath.Join(data, "crush.json"), filepath.Join(data, "commands") + "/", filepath.Join(conf, "commands") + "/",
			filepath.Join(conf, "crush.json"), filepath.Join(conf, ".crush.json"),
			filepath.Join(conf, "crushrc"), filepath.Join(conf, ".crushrc"),
		},
	}
	st.LoginEnv = append(st.LoginEnv, login...)
	st.Providers = append(agents.ConfigURLs(crushBaseURL, filepath.Join(conf, "crush.json"), filepath.Join(data, "crush.json")), defaultHosts...)
	return st
}

// dollarVar finds "$NAME" values in crush.json (a provider's api_key).
var dollarVar = regexp.MustCompile(`"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"`)

// crushBaseURL finds a provider's base_url in crush.json.
var crushBaseURL = regexp.MustCompile(`"base_url"\s*:\s*"([^"]+)"`)

// defaultHosts are the APIs of Crush's built-in providers and its
// provider list (catwalk), for the agent ring's proxy (docs/ring.md
// "The network"); a provider of crush.json adds its base_url. Only the
// user's own crush.json counts, never a project's.
var defaultHosts = []string{"catwalk.charm.sh", "api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com",
	"api.groq.com", "api.x.ai", "openrouter.ai"}
