// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// TestAskHook: in a ring session on a terminal (Prompt), the Bash tool
// gets the ask hook beside the file tools' hook; without a terminal it
// does not (the shim waits for lite-sandbox approve instead).
func TestAskHook(t *testing.T) {
	for _, prompt := range []bool{true, false} {
		b, err := Settings(agents.Session{Exe: "/opt/ls/lite-sandbox", Ring: true, Prompt: prompt})
		if err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(b), `"matcher":"Bash"`) && strings.Contains(string(b), `lite-sandbox' hook ask || exit 2`)
		if has != prompt {
			t.Errorf("Prompt %v: ask hook installed %v:\n%s", prompt, has, b)
		}
	}
}

func TestAskIO(t *testing.T) {
	var a Agent
	cmd, cwd, err := a.AskInput([]byte(`{"tool_name":"Bash","cwd":"/w","tool_input":{"command":"npm publish"}}`))
	if err != nil || cmd != "npm publish" || cwd != "/w" {
		t.Errorf("AskInput = %q %q %v", cmd, cwd, err)
	}
	for _, in := range []string{`{"tool_name":"Read","tool_input":{"file_path":"x"}}`, `{"tool_name":"Bash","tool_input":{}}`, `not json`} {
		if _, _, err := a.AskInput([]byte(in)); err == nil {
			t.Errorf("AskInput(%s): no error", in)
		}
	}
	if out := a.AskOutput(agents.AskGoOn, "m"); len(out) != 0 {
		t.Errorf("AskOutput(AskGoOn) = %s, want nothing (Claude goes on)", out)
	}
	for _, c := range []struct {
		answer agents.AskAnswer
		want   string
	}{{agents.AskYes, "allow"}, {agents.AskNo, "deny"}} {
		out := a.AskOutput(c.answer, "lite-sandbox: pkg.publish asks a person")
		var raw map[string]map[string]string
		json.Unmarshal(out, &raw)
		h := raw["hookSpecificOutput"]
		if h["hookEventName"] != "PreToolUse" || h["permissionDecision"] != c.want || h["permissionDecisionReason"] != "lite-sandbox: pkg.publish asks a person" {
			t.Errorf("AskOutput(%v) = %s, want %s", c.answer, out, c.want)
		}
	}
}
