// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// askIO is what the extension (lite-sandbox.ts) sends to `lite-sandbox
// hook ask` through the shim before a bash call, and what it gets back.
type askIO struct {
	Command *string `json:"command,omitempty"`
	Cwd     string  `json:"cwd,omitempty"`
	// Answer is "yes" (run it), "no" (block it, Message says why) or
	// "" (go on: the shim judges it).
	Answer  string `json:"answer,omitempty"`
	Message string `json:"message,omitempty"`
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

// AskOutput tells the extension what the person said on the
// launcher's confirm line (docs/validator.md §8).
func (Agent) AskOutput(answer agents.AskAnswer, message string) []byte {
	a := askIO{Message: message}
	switch answer {
	case agents.AskYes:
		a.Answer = "yes"
	case agents.AskNo:
		a.Answer = "no"
	}
	b, _ := json.Marshal(a)
	return b
}
