// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents/mockmodel"
)

const opencodeInstall = "npm install -g opencode-ai@1.18.33"

// opencodeSetup is the user's opencode configuration against the mock
// model: an OpenAI-compatible provider with its key in OPENAI_API_KEY
// (read through "{env:...}"), its model the default. The models list is
// not fetched (a hermetic test; the ring's proxy would refuse it).
// opencode's own check of paths outside the project is switched off,
// so that its file tools reach the ring, which must hold them.
func opencodeSetup(e *env) []string {
	e.write("~/.config/opencode/opencode.json", opencodeConfig(e))
	return []string{"OPENAI_API_KEY=" + secretKey, "OPENCODE_DISABLE_MODELS_FETCH=1"}
}

func opencodeConfig(e *env) string {
	return fmt.Sprintf(`{"model":"mock/mock-model","permission":{"external_directory":"allow"},"provider":{"mock":{"npm":"@ai-sdk/openai-compatible","name":"Mock",`+
		`"options":{"baseURL":%q,"apiKey":"{env:OPENAI_API_KEY}"},"models":{"mock-model":{"name":"Mock","tool_call":true}}}}}`,
		e.mock.URL+"/v1")
}

// opencodeEnv is a ring env (home and workspace outside /tmp, which the
// ring hides) with the real opencode.
func opencodeEnv(t *testing.T) *env {
	e := keepEnvWith(t, agentBin(t, "opencode", opencodeInstall))
	e.canary = filepath.Join(e.home, ".ssh", "canary")
	e.write("~/.ssh/canary", canaryText+"\n")
	return e
}

// TestOpencode (#30): `launch opencode` with the real CLI against the
// scripted model, in the agent ring, as root and as nobody. Its bash
// tool's commands go through the shim: an allowed one runs in the
// session's sandbox (it writes the workspace, cannot read the ~/.ssh
// canary nor see the API key), a workspace script the validator cannot
// read into cannot read the canary either, a refused one is explained
// in the next request and nothing of it runs. Its file tools are held
// by the ring: writing the home, its own config and the repository's
// .opencode/ fail, while writing and editing the workspace work (the
// positive controls).
func TestOpencode(t *testing.T) {
	asUsers(t, opencodeEnv, "opencode", func(t *testing.T, e *env) {
		e.write("peek.sh", peekScript)
		e.write("src.txt", "WORKSPACE-TEXT\n")
		write := func(p string) mockmodel.Turn {
			return mockmodel.Turn{{Tool: "write", Input: map[string]any{"filePath": p, "content": evilText + "\n"}}}
		}
		e.script(
			mockmodel.Turn{mockmodel.Shell(allowedCommand(e, "OPENAI_API_KEY"))}, // call_1_0
			mockmodel.Turn{mockmodel.Shell("sh ./peek.sh")},                      // call_2_0
			mockmodel.Turn{mockmodel.Shell(deniedCommand)},                       // call_3_0
			write(filepath.Join(e.home, "outside.txt")),                          // call_4_0
			write(filepath.Join(e.home, ".config", "opencode", "opencode.json")), // call_5_0
			write(filepath.Join(e.ws, ".opencode", "plugins", "p.js")),           // call_6_0
			write(filepath.Join(e.ws, "new.txt")),                                // call_7_0
			mockmodel.Turn{{Tool: "edit", Input: map[string]any{"filePath": filepath.Join(e.ws, "src.txt"),
				"oldString": "WORKSPACE-TEXT", "newString": "EDITED-TEXT"}}}, // call_8_0
		)
		env := opencodeSetup(e)
		out, errs, code := e.launch("opencode", env, "run", "run the command")
		ctx := fmt.Sprintf("\nexit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		res := e.mock.Results()
		for id, r := range res {
			t.Logf("result %s: %.400q", id, r)
		}
		if code != 0 {
			t.Fatalf("launch opencode failed%s", ctx)
		}
		e.checkAllowed(res["call_1_0"], out, errs)
		if r := res["call_2_0"]; !strings.Contains(r, "script-ran") || !strings.Contains(r, "script-canary=unreadable") {
			t.Errorf("the workspace script did not run in the sandbox: %q%s", r, ctx)
		}
		e.checkDenied(res["call_3_0"])
		if e.mock.Saw(canaryText) {
			t.Errorf("the model received the ~/.ssh canary%s", ctx)
		}
		if b, err := os.ReadFile(e.canary); err != nil || !strings.Contains(string(b), canaryText) {
			t.Errorf("the canary is not on the host (%v): the check proves nothing", err)
		}
		// In the ring a write to the home lands in the scratch: gone at
		// the end, and named in the closing line.
		if _, err := os.Stat(filepath.Join(e.home, "outside.txt")); err == nil {
			t.Errorf("write wrote the home outside the workspace")
		}
		if !strings.Contains(errs, "~/outside.txt") {
			t.Errorf("the closing line does not name the dropped ~/outside.txt%s", ctx)
		}
		if b, _ := os.ReadFile(filepath.Join(e.home, ".config", "opencode", "opencode.json")); string(b) != opencodeConfig(e) {
			t.Errorf("write changed opencode's own config: %q", b)
		}
		if _, err := os.Stat(filepath.Join(e.ws, ".opencode", "plugins", "p.js")); err == nil {
			t.Errorf("write made a plugin in the repository's .opencode/")
		}
		if b, _ := os.ReadFile(filepath.Join(e.ws, "new.txt")); !strings.Contains(string(b), evilText) {
			t.Errorf("write of the workspace (the control) failed: %q%s", b, ctx)
		}
		if b, _ := os.ReadFile(filepath.Join(e.ws, "src.txt")); !strings.Contains(string(b), "EDITED-TEXT") {
			t.Errorf("edit of the workspace (the control) failed: %q%s", b, ctx)
		}
	})
}
