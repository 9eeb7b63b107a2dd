// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package opencode

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// created matches the log line of a new session (1.18.33's
// data/log/opencode.log): its time, id and directory. Compiled on first
// use: every shim links the adapters.
var created = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^timestamp=(\S+) .*\bmessage=created id=(ses_[A-Za-z0-9]+) .*\bdirectory=(\S+) .*\bparentID=undefined\b`)
})

// ResumeArgs finds the session opencode just made: the last top-level
// session of the workspace created since the start, as its log records
// it (the sessions themselves are rows of its SQLite database). `opencode
// --session ID` takes the id.
func (Agent) ResumeArgs(s agents.Session, since time.Time) ([]string, bool) {
	_, data, _, _ := dirs(s)
	f, err := os.Open(filepath.Join(data, "log", "opencode.log"))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	id := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "message=created id=ses_") {
			continue
		}
		m := created().FindStringSubmatch(line)
		if m == nil || m[3] != s.Workspace {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, m[1]); err != nil || t.Before(since) {
			continue
		}
		id = m[2]
	}
	if id == "" || !agents.PlainToken(id) {
		return nil, false
	}
	return []string{"--session", id}, true
}
