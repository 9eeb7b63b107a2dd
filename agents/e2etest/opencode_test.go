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
	"time"

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
		write := func(p string) mockmodel.Call {
			return mockmodel.Call{Tool: "write", Input: map[string]any{"filePath": p, "content": evilText + "\n"}}
		}
		// Two turns of several calls each: every turn is a request of
		// its own, slow on a loaded machine.
		e.script(
			mockmodel.Turn{
				mockmodel.Shell(allowedCommand(e, "OPENAI_API_KEY")), // call_1_0
				mockmodel.Shell("sh ./peek.sh"),                      // call_1_1
				mockmodel.Shell(deniedCommand),                       // call_1_2
			},
			mockmodel.Turn{
				write(filepath.Join(e.home, "outside.txt")),                          // call_2_0
				write(filepath.Join(e.home, ".config", "opencode", "opencode.json")), // call_2_1
				write(filepath.Join(e.ws, ".opencode", "plugins", "p.js")),           // call_2_2
				write(filepath.Join(e.ws, "new.txt")),                                // call_2_3
				{Tool: "edit", Input: map[string]any{"filePath": filepath.Join(e.ws, "src.txt"),
					"oldString": "WORKSPACE-TEXT", "newString": "EDITED-TEXT"}}, // call_2_4
			},
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
		if r := res["call_1_1"]; !strings.Contains(r, "script-ran") || !strings.Contains(r, "script-canary=unreadable") {
			t.Errorf("the workspace script did not run in the sandbox: %q%s", r, ctx)
		}
		e.checkDenied(res["call_1_2"])
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
		// .opencode/ is protected: a missing one the ring makes is moved
		// to the quarantine by the guard at once, and said at the end.
		if _, err := os.Stat(filepath.Join(e.ws, ".opencode", "plugins", "p.js")); err == nil {
			t.Errorf("write made a plugin in the repository's .opencode/")
		}
		if strings.Contains(res["call_2_2"], "successfully") && !strings.Contains(errs, ".opencode is a protected path and appeared") {
			t.Errorf("the write of .opencode/ went through and no guard's line names it%s", ctx)
		}
		if b, _ := os.ReadFile(filepath.Join(e.ws, "new.txt")); !strings.Contains(string(b), evilText) {
			t.Errorf("write of the workspace (the control) failed: %q%s", b, ctx)
		}
		if b, _ := os.ReadFile(filepath.Join(e.ws, "src.txt")); !strings.Contains(string(b), "EDITED-TEXT") {
			t.Errorf("edit of the workspace (the control) failed: %q%s", b, ctx)
		}
	})
}

// TestOpencodeTUI (#30): opencode's TUI under launch, in tmux, from a
// job-control shell, as root and as nobody: a prompt gets the mock's
// shell call run in the session's sandbox and the answer rendered; a
// `!cmd` typed in its shell mode runs through the shim too; Ctrl-Z gives
// the shell back with the job Stopped; fg brings it back and it takes
// keys again; /exit ends it with status 0, the terminal as it was, and
// the routed resume line.
func TestOpencodeTUI(t *testing.T) {
	asUsers(t, opencodeEnv, "opencode", func(t *testing.T, e *env) {
		e.setCommand(allowedCommand(e, "OPENAI_API_KEY"))
		env := append(opencodeSetup(e), "TERM=xterm-256color")
		u := e.startTUI(env, "bash", "--norc", "--noprofile", "-i")
		prompt := func() bool {
			s := strings.TrimSpace(u.screen())
			return strings.HasSuffix(s, "$") || strings.HasSuffix(s, "#")
		}
		u.waitFor("the shell's prompt", prompt)
		u.typeText(fmt.Sprintf("%s launch --sandbox on opencode", binary), true)
		// A native TUI's first screen on a loaded machine: a longer guard.
		if !u.poll(3*time.Minute, u.shows("Ask anything")) {
			t.Fatalf("opencode's TUI did not start; the terminal shows:\n%s", u.screen())
		}
		u.submit("run the command", "the answer", u.shows(finalText))
		// The title request gets the final text too: wait for the call's
		// output (not the command's echo) and its result at the mock.
		u.waitFor("the shell call's output", u.shows("key=absent"))
		u.waitFor("the shell call's result at the mock", func() bool { return len(e.mock.ToolResults()) > 0 })
		if b, err := os.ReadFile(filepath.Join(e.ws, "probe.txt")); err != nil || strings.TrimSpace(string(b)) != "PROBE" {
			t.Errorf("the shell call did not run: probe.txt %q, %v", b, err)
		}
		if rs := e.mock.ToolResults(); len(rs) != 1 || !strings.Contains(rs[0], "canary=unreadable") || strings.Contains(rs[0], canaryText) {
			t.Errorf("the shell call's result: %q", rs)
		}
		// Shell mode (`!`): opencode's `bash -l -c SCRIPT opencode CWD`,
		// in the sandbox, where the agent's key is not in the environment.
		// No `$` in it: the wrapper expands the command's words before its
		// eval, which the validator refuses as a dynamic script
		// (docs/agents.md §10).
		u.typeText("!", false)
		u.typeText("echo BANG > bang.txt; env | grep -q OPENAI_API_KEY || printf 'bang-%s\\n' nokey", true)
		u.waitFor("the shell mode's output", u.shows("bang-nokey"))
		if b, _ := os.ReadFile(filepath.Join(e.ws, "bang.txt")); strings.TrimSpace(string(b)) != "BANG" {
			t.Errorf("the shell mode's command did not run: bang.txt %q", b)
		}
		if strings.Contains(u.screen(), secretKey) {
			t.Errorf("the shell mode's command saw the agent's key")
		}
		u.keys("C-z")
		u.waitFor("the job Stopped", u.shows("Stopped"))
		u.typeText("fg", true)
		// Back and taking keys: what is typed after fg shows in its input.
		u.typeText("zqxj", false)
		u.waitFor("the typed keys in opencode's input after fg", func() bool {
			for _, l := range strings.Split(u.screen(), "\n") {
				if l = strings.TrimSpace(l); strings.HasSuffix(l, "zqxj") && strings.HasPrefix(l, "┃") {
					return true
				}
			}
			return false
		})
		u.keys("C-u")
		u.submit("/exit", "the shell's prompt", prompt)
		if s := u.screen(); !strings.Contains(s, "launch opencode -- --session ses_") {
			t.Errorf("no resume line; the terminal shows:\n%s", s)
		}
		u.typeText("exit", true)
		u.finish(0)
	})
}
