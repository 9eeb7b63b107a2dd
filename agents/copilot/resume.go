// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package copilot

import (
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// ResumeArgs finds the session Copilot just wrote: the newest
// ~/.copilot/session-state/<id>/events.jsonl written since the start
// (1.0.102); `copilot --resume=ID` takes the directory's name.
func (Agent) ResumeArgs(s agents.Session, since time.Time) ([]string, bool) {
	f := agents.NewestFile(since, "", filepath.Join(copilotDir(s), "session-state", "*", "events.jsonl"))
	if f == "" {
		return nil, false
	}
	id := filepath.Base(filepath.Dir(f))
	if !agents.PlainToken(id) {
		return nil, false
	}
	return []string{"--resume=" + id}, true
}
