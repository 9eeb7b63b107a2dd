// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"path/filepath"
	"regexp"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// apiKey finds a provider's apiKey in models.json (an environment
// variable's name, or the key itself, which is then no name).
var apiKey = regexp.MustCompile(`"apiKey"\s*:\s*"([^"]+)"`)

// State is the per-session agent directory (below the session) and the
// user's own agent directory as a read-only layer, with auth.json
// (which Pi refreshes) and sessions/ writable. models.json (Pi runs its
// "!cmd" values), settings.json, extensions/, prompts/, skills/, npm/,
// git/ and bin/ are code Pi runs, read-only by construction.
func (Agent) State(s agents.Session) agents.State {
	user := userAgentDir(s)
	st := agents.State{
		Dirs:         []string{user},
		SessionWrite: []string{filepath.Join(s.Dir, "pi")},
		Write:        []string{filepath.Join(user, "sessions")},
		// A first run under launch keeps its history (Prepare links it).
		CreateDirs: []string{filepath.Join(user, "sessions")},
		ReadOnly: []string{
			filepath.Join(user, "settings.json"),
			filepath.Join(user, "models.json"),
			filepath.Join(user, "extensions") + "/",
			filepath.Join(user, "npm") + "/",
			filepath.Join(user, "git") + "/",
			filepath.Join(user, "bin") + "/",
		},
		// Pi reaches many providers; these are the ones it reads.
		LoginEnv: append([]string{"ANTHROPIC_*", "OPENAI_*", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GROQ_API_KEY",
			"XAI_API_KEY", "OPENROUTER_API_KEY", "MISTRAL_API_KEY", "CEREBRAS_API_KEY", "AZURE_OPENAI_*", "PI_*"},
			agents.ConfigEnv(apiKey, filepath.Join(user, "models.json"))...),
		Providers: append(agents.ConfigURLs(piBaseURL, filepath.Join(user, "models.json")), defaultHosts...),
	}
	for _, n := range userState {
		if n == "auth.json" {
			st.Credentials = append(st.Credentials, filepath.Join(user, n))
		}
	}
	st.Keep = []agents.KeptFile{{Name: "auth.json", Merge: mergeAuth}}
	return st
}

// piBaseURL finds a provider's baseUrl in models.json.
var piBaseURL = regexp.MustCompile(`"baseUrl"\s*:\s*"([^"]+)"`)

// defaultHosts are the APIs of the providers Pi logs in to by itself
// (its built-in list), for the agent ring's proxy (docs/ring.md "The
// network"); a provider of models.json adds its baseUrl.
var defaultHosts = []string{"api.anthropic.com", "console.anthropic.com", "api.openai.com", "chatgpt.com", "auth.openai.com",
	"generativelanguage.googleapis.com", "api.groq.com", "api.x.ai", "openrouter.ai", "api.mistral.ai", "api.cerebras.ai",
	"api.githubcopilot.com", "github.com"}
