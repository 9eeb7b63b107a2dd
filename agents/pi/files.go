// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"encoding/json"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// envExe names the lite-sandbox binary for the session extension, which
// runs `'<exe>' hook pi` through the session's shim (the session's judge
// answers it) to judge each path of pi's file tools.
const envExe = "LITE_SANDBOX_EXE"

// fileQuery is what the extension sends on stdin: one path of one tool
// call, as the model wrote it (pi's own "@" prefix already removed), and
// the session's cwd.
type fileQuery struct {
	Access string `json:"access"` // read, search or write
	Path   string `json:"path"`
	Cwd    string `json:"cwd"`
}

// fileAnswer is what it reads back.
type fileAnswer struct {
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
}

// HookFiles is `lite-sandbox hook pi`: it judges one path with the
// session's policy. The extension blocks the call (it throws) unless the
// answer says allowed; an input it cannot read is refused.
func (Agent) HookFiles(in []byte, _ agents.Checker, judge agents.PathChecker, _ string) ([]byte, int) {
	var q fileQuery
	answer := func(a fileAnswer) ([]byte, int) {
		b, _ := json.Marshal(a)
		return append(b, '\n'), 0
	}
	if err := json.Unmarshal(in, &q); err != nil {
		return answer(fileAnswer{Reason: "lite-sandbox: the file check's input is not valid JSON; the tool call was refused: " + err.Error()})
	}
	access := map[string]agents.FileAccess{"read": agents.FileRead, "search": agents.FileSearch, "write": agents.FileWrite}
	a, ok := access[q.Access]
	if !ok {
		return answer(fileAnswer{Reason: "lite-sandbox: unknown file access " + q.Access + "; the tool call was refused"})
	}
	v := judge(a, q.Path, q.Cwd)
	return answer(fileAnswer{Allowed: v.Allowed, Reason: v.Message})
}
