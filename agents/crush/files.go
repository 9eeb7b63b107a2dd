// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package crush

import (
	"encoding/json"
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// hookMatcher is the data-dir hook's tool-name regex: the bash tool
// (routing) and the file tools whose path the judge explains
// (docs/agents.md §5.4; designed from Crush's documented contract, no
// crush binary could be installed here).
const hookMatcher = "^(bash|view|edit|multiedit|write|download|ls|glob|grep)$"

// disabledTools are Crush tools switched off under launch: the agent
// and agentic_fetch sub-agents run tools that fire no hooks.
var disabledTools = []string{"agent", "agentic_fetch"}

// fileFields are each file tool's path field and what it does with it.
var fileFields = map[string]struct {
	field  string
	access agents.FileAccess
}{
	"view":      {"file_path", agents.FileRead},
	"edit":      {"file_path", agents.FileWrite},
	"multiedit": {"file_path", agents.FileWrite},
	"write":     {"file_path", agents.FileWrite},
	"download":  {"file_path", agents.FileWrite},
	"ls":        {"path", agents.FileSearch},
	"glob":      {"path", agents.FileSearch},
	"grep":      {"path", agents.FileSearch},
}

// HookFiles is Hook plus the file tools: the path field is judged
// relative to the hook's cwd (glob, grep and ls default to it); a
// refusal blocks (exit 2) with the judge's reason. An allowed call gets
// no decision (Crush's own permission prompt still applies) and its path
// field echoed back in updated_input: hook patches merge in config
// order and ours is read last, so a project hook cannot swap the path
// after we judged it.
func (a Agent) HookFiles(in []byte, check agents.Checker, judge agents.PathChecker, shim string) ([]byte, int) {
	var h struct {
		ToolName  string         `json:"tool_name"`
		Cwd       string         `json:"cwd"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.Unmarshal(in, &h); err != nil {
		return deny("lite-sandbox: the hook input is not valid JSON; the tool call was refused: " + err.Error())
	}
	f, ok := fileFields[h.ToolName]
	if !ok {
		return a.Hook(in, check, shim)
	}
	p, present := h.ToolInput[f.field]
	ps, isString := p.(string)
	switch {
	case present && !isString:
		return deny(fmt.Sprintf("lite-sandbox: %s's %s is not a string; refused", h.ToolName, f.field))
	case ps == "" && f.access != agents.FileSearch:
		return deny(fmt.Sprintf("lite-sandbox: a %s call without %s; refused", h.ToolName, f.field))
	case ps == "":
		ps = h.Cwd
	}
	if v := judge(f.access, ps, h.Cwd); !v.Allowed {
		return deny(v.Message)
	}
	upd := map[string]any{}
	if present {
		upd[f.field] = p
	}
	b, _ := json.Marshal(map[string]any{"updated_input": upd})
	return append(b, '\n'), 0
}
