// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"encoding/json"
	"errors"
	"fmt"
)

// askIO is what the extension (lite-sandbox.ts) sends to `lite-sandbox
// hook ask` through the shim before a bash call, and what it gets back.
type askIO struct {
	Command *string `json:"command,omitempty"`
	Cwd     string  `json:"cwd,omitempty"`
	Ask     bool    `json:"ask"`
	Message string  `json:"message,omitempty"`
}

// AskInput reads the extension's question: the bash call's command and
// directory.
func (Agent) AskInput(in []byte) (string, string, error) {
	var a askIO
	if err := json.Unmarshal(in, &a); err != nil {
		return "", "", fmt.Errorf("pi ask input: %w", err)
	}
	if a.Command == nil {
		return "", "", errors.New("pi ask input: no command")
	}
	return *a.Command, a.Cwd, nil
}

// AskOutput tells the extension whether to ask the person with Pi's own
// confirm dialog (ctx.ui.confirm), and with what text.
func (Agent) AskOutput(ask bool, message string) []byte {
	b, _ := json.Marshal(askIO{Ask: ask, Message: message})
	return b
}
