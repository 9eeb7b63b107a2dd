// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package mockmodel

// Turn is one model reply: its tool calls, in order, in one message.
type Turn []Call

// Call is one tool call.
type Call struct {
	// Tool is the tool's name as the agent offers it: Claude's "Read",
	// Codex's "exec_command" or "apply_patch", Pi's "read", ...
	Tool string
	// Input are the call's arguments (a function tool).
	Input map[string]any
	// Custom is the raw input of a freeform (custom) tool of the
	// Responses API, Codex's apply_patch; Input is then ignored.
	Custom string
	// Command, with Tool empty, is a call of the agent's shell tool as
	// the one-command mode makes it.
	Command string
}

// Shell is a call of the agent's shell tool (Bash, exec_command, bash).
func Shell(cmd string) Call { return Call{Command: cmd} }

// turn returns the calls due when the request carries n tool results,
// and the turn's 1-based number; ok is false when the final answer is
// due. It depends only on the request, never on earlier requests.
func (sc Scenario) turn(n int) (Turn, int, bool) {
	turns := sc.Turns
	if turns == nil {
		for _, c := range append([]string{sc.Command}, sc.Then...) {
			turns = append(turns, Turn{Shell(c)})
		}
	}
	done := 0
	for k, t := range turns {
		if n < done+len(t) {
			return t, k + 1, true
		}
		done += len(t)
	}
	return nil, 0, false
}
