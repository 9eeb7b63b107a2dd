// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package pi

import (
	"encoding/json"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

func TestHookFiles(t *testing.T) {
	t.Parallel()
	judge := func(a agents.FileAccess, p, cwd string) agents.Verdict {
		if a == agents.FileWrite && p == "~/.bashrc" && cwd == "/ws" {
			return agents.Verdict{Message: "lite-sandbox: NO"}
		}
		return agents.Verdict{Allowed: true}
	}
	for _, tc := range []struct {
		in      string
		allowed bool
		reason  string
	}{
		{`{"access":"write","path":"~/.bashrc","cwd":"/ws"}`, false, "lite-sandbox: NO"},
		{`{"access":"read","path":"~/.bashrc","cwd":"/ws"}`, true, ""},
		{`{"access":"exec","path":"x","cwd":"/ws"}`, false, "lite-sandbox: unknown file access exec; the tool call was refused"},
	} {
		out, code := New().HookFiles([]byte(tc.in), nil, judge, "")
		var a fileAnswer
		if err := json.Unmarshal(out, &a); err != nil || code != 0 || a.Allowed != tc.allowed || a.Reason != tc.reason {
			t.Errorf("%s: %s (exit %d), want allowed=%v reason %q", tc.in, out, code, tc.allowed, tc.reason)
		}
	}
	if out, _ := New().HookFiles([]byte("x"), nil, judge, ""); json.Unmarshal(out, new(fileAnswer)) != nil || string(out) == `{"allowed":true}`+"\n" {
		t.Errorf("bad JSON: %s", out)
	}
}
