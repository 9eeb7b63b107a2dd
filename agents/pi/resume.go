// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// sessionID matches the uuid at the end of a session file's name
// (<timestamp>_<uuid>.jsonl). It is compiled on first
// use: every shim links the adapters, and start-up is paid per command.
var sessionID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`)
})

// ResumeArgs finds the session Pi just wrote: the newest session file
// under the user's sessions directory (which launch links into the
// session's agent directory) written since the start. Without that
// directory Pi's sessions lived in the launch session and are gone.
func (Agent) ResumeArgs(s agents.Session, since time.Time) ([]string, bool) {
	dir := filepath.Join(userAgentDir(s), "sessions")
	f := agents.NewestFile(since, "", filepath.Join(dir, "*", "*.jsonl"), filepath.Join(dir, "*.jsonl"))
	m := sessionID().FindStringSubmatch(f)
	if m == nil {
		return nil, false
	}
	return []string{"--session", m[1]}, true
}
