// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// AskHookCommand is the PreToolUse hook of the Bash tool in an
// interactive session: the session's judge answers it (docs/validator.md
// §8). Guarded like [HookCommand]: anything but the judge's answer
// blocks the call.
func AskHookCommand(exe string) string { return guardedHook(exe, "ask") }

// bashInput is the part of a Bash call's hook input the question reads.
type bashInput struct {
	ToolName  string `json:"tool_name"`
	Cwd       string `json:"cwd"`
	ToolInput struct {
		Command *string `json:"command"`
	} `json:"tool_input"`
}

// AskInput reads a PreToolUse hook's input for the Bash tool.
func (Agent) AskInput(in []byte) (string, string, error) {
	var h bashInput
	if err := json.Unmarshal(in, &h); err != nil {
		return "", "", fmt.Errorf("claude hook input: %w", err)
	}
	if h.ToolName != "Bash" || h.ToolInput.Command == nil {
		return "", "", errors.New("claude hook input: not a Bash call with a command")
	}
	return *h.ToolInput.Command, h.Cwd, nil
}

// AskOutput answers the hook: the launcher asked the person on its own
// confirm line (docs/validator.md §8), so Claude's own dialog is not
// shown; "allow" after a yes (the shim lets that one command through),
// "deny" with message as the model's reason after a no; no output lets
// Claude go on, and the shim judges the command as usual.
func (Agent) AskOutput(answer agents.AskAnswer, message string) []byte {
	decision := "allow"
	switch answer {
	case agents.AskGoOn:
		return nil
	case agents.AskNo:
		decision = "deny"
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       decision,
		"permissionDecisionReason": message,
	}})
	return b
}
