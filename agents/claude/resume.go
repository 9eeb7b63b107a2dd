// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// notAlnum matches what Claude replaces with '-' in a project's directory
// name under ~/.claude/projects (/w/my.repo → -w-my-repo). It is compiled on first
// use: every shim links the adapters, and start-up is paid per command.
var notAlnum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9]`) })

// ResumeArgs finds the session Claude just wrote: the newest transcript
// (<id>.jsonl) of the workspace's project directory, written since the
// start, that holds a user message (Claude writes a transcript at start
// even when nothing is said, and offers no resume for it).
func (Agent) ResumeArgs(s agents.Session, since time.Time) ([]string, bool) {
	dir := s.Getenv("CLAUDE_CONFIG_DIR")
	if dir == "" {
		dir = filepath.Join(s.Home, ".claude")
	}
	proj := filepath.Join(dir, "projects", notAlnum().ReplaceAllString(s.Workspace, "-"))
	f := agents.NewestFile(since, `"type":"user"`, filepath.Join(proj, "*.jsonl"))
	if f == "" {
		return nil, false
	}
	return []string{"--resume", strings.TrimSuffix(filepath.Base(f), ".jsonl")}, true
}
