// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package codex

import (
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// rolloutID matches the session id at the end of a rollout file's name
// (rollout-2026-12-01T10-00-00-<uuid>.jsonl). It is compiled on first
// use: every shim links the adapters, and start-up is paid per command.
var rolloutID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$`)
})

// ResumeArgs finds the session Codex just wrote: the newest rollout under
// $CODEX_HOME/sessions/YYYY/MM/DD written since the start. `codex exec`
// sessions resume with `exec resume ID`, the TUI's with `resume ID`.
func (Agent) ResumeArgs(s agents.Session, since time.Time) ([]string, bool) {
	home := s.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(s.Home, ".codex")
	}
	var pats []string
	for _, d := range []time.Time{since, time.Now()} {
		for _, t := range []time.Time{d, d.UTC()} {
			pats = append(pats, filepath.Join(home, "sessions", t.Format("2006/01/02"), "rollout-*.jsonl"))
		}
	}
	f := agents.NewestFile(since, "", pats...)
	m := rolloutID().FindStringSubmatch(f)
	if m == nil {
		return nil, false
	}
	if len(s.Args) > 0 && s.Args[0] == "exec" {
		return []string{"exec", "resume", m[1]}, true
	}
	return []string{"resume", m[1]}, true
}
