// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gemini

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// ResumeArgs finds the session Gemini just wrote: the newest chat file
// under ~/.gemini/tmp/<project>/chats written since the start, whose
// first line is a JSON record with its sessionId (0.61.0's
// session-<time>-<id>.jsonl; older releases wrote .json). `gemini
// --resume ID` takes the id.
func (Agent) ResumeArgs(s agents.Session, since time.Time) ([]string, bool) {
	chats := filepath.Join(geminiDir(s), "tmp", "*", "chats")
	f := agents.NewestFile(since, "", filepath.Join(chats, "session-*.jsonl"), filepath.Join(chats, "session-*.json"))
	if f == "" {
		return nil, false
	}
	id := sessionID(f)
	if id == "" || !agents.PlainToken(id) {
		return nil, false
	}
	return []string{"--resume", id}, true
}

// sessionID reads the sessionId of a chat file's first JSON line (or
// its whole JSON object).
func sessionID(name string) string {
	fh, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	if !sc.Scan() {
		return ""
	}
	var head struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(sc.Bytes(), &head) != nil {
		return ""
	}
	return head.SessionID
}
