// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// State is the per-session agent directory (below the session) and what
// its links point to in the user's own agent directory (auth.json, which
// Pi refreshes, models.json, sessions/). The rest of the user's agent
// directory, its settings.json and extensions/ (code Pi runs at its next
// start) included, stays read-only; the guards keep them read-only even
// when the user adds the directory to agent.write.
func (Agent) State(s agents.Session) agents.State {
	user := userAgentDir(s)
	st := agents.State{
		SessionWrite: []string{filepath.Join(s.Dir, "pi")},
		Write: []string{
			filepath.Join(user, "auth.json"), filepath.Join(user, "models.json"),
			filepath.Join(user, "sessions"),
		},
		// A first run under launch keeps its history (Prepare links it).
		CreateDirs: []string{filepath.Join(user, "sessions")},
		ReadOnly: []string{
			filepath.Join(user, "settings.json"),
			filepath.Join(user, "extensions") + "/",
			filepath.Join(user, "npm") + "/",
			filepath.Join(user, "git") + "/",
			filepath.Join(user, "bin") + "/",
		},
	}
	for _, n := range userState {
		if n == "auth.json" {
			st.Credentials = append(st.Credentials, filepath.Join(user, n))
		}
	}
	return st
}
