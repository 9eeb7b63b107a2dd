// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/mockmodel"
)

const copilotInstall = "npm install -g @github/copilot@1.0.102"

// copilotSetup is Copilot's own provider (BYOK) against the mock model,
// offline: no GitHub login, telemetry or update check. Its shell tool is
// "bash" {command} on the Chat Completions API, as the mock's chat
// route speaks it.
func copilotSetup(e *env) []string {
	return []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + e.mock.URL + "/v1",
		"COPILOT_PROVIDER_API_KEY=" + secretKey, "COPILOT_MODEL=gpt-4.1"}
}

// copilotEnv is a ring env (home and workspace outside /tmp, which the
// ring hides) with the real Copilot CLI.
func copilotEnv(t *testing.T) *env {
	e := keepEnvWith(t, agentBin(t, "copilot", copilotInstall))
	e.canary = filepath.Join(e.home, ".ssh", "canary")
	e.write("~/.ssh/canary", canaryText+"\n")
	return e
}

// copilotExtract runs the CLI once on the host with the env's home, as
// a user who has used Copilot before has: its package extracted into
// ~/.cache/copilot/pkg/<platform>/<version>, which the ring shows
// read-only. It returns that package's index.js.
func copilotExtract(e *env) string {
	e.t.Helper()
	cmd := exec.Command(filepath.Join(e.agentDir, "copilot"), "--version")
	cmd.Env = []string{"HOME=" + e.home, "PATH=" + e.agentDir + ":/usr/local/bin:/usr/bin:/bin", "COPILOT_AUTO_UPDATE=false"}
	if out, err := cmd.CombinedOutput(); err != nil {
		e.t.Fatalf("copilot --version: %v\n%s", err, out)
	}
	m, _ := filepath.Glob(filepath.Join(e.home, ".cache", "copilot", "pkg", "*", "1.0.102", "index.js"))
	if len(m) != 1 {
		e.t.Fatalf("the extracted package's index.js: %v", m)
	}
	return m[0]
}

// copilotUserHook is the user's own preToolUse hook (~/.copilot/hooks/):
// Copilot runs its command with the same bash as the shell tool's, so
// it runs in the session's sandbox: the canary unreadable (a path the
// validator cannot see), the provider's key absent (the ring's
// environment has it, the sandbox's does not). A hook command the
// validator refuses (a literal ~/.ssh path) makes Copilot deny the tool
// ("hook errored", measured): closed.
const copilotUserHook = `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":` +
	`"{ d=.ssh; cat $HOME/$d/canary || echo hook-canary=unreadable; echo hook-key=${COPILOT_PROVIDER_API_KEY:-absent}; echo hook-ran; } >> hook-out.txt 2>&1"}]}}`

const copilotHook = `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"echo HOOK > hook-ran.txt"}]}}`

// TestCopilot (#30): `launch copilot` with the real CLI against the
// scripted model, in the agent ring, as root and as nobody. Its shell
// tool's commands go through the shim: an allowed one runs in the
// session's sandbox (it writes the workspace, cannot read the ~/.ssh
// canary nor see the API key), a workspace script the validator cannot
// read into cannot read the canary either, a refused one is explained in
// the next request and nothing of it runs. Its file tools (all paths
// allowed by --yolo, so that Copilot's own path check lets them
// through) are held by the ring: reading the canary, writing the home
// and its own settings and hooks fail, while reading and writing the
// workspace work (the positive controls).
func TestCopilot(t *testing.T) {
	asUsers(t, copilotEnv, "copilot", func(t *testing.T, e *env) {
		e.write("peek.sh", peekScript)
		e.write("src.txt", "WORKSPACE-TEXT\n")
		e.write("~/.copilot/settings.json", "{}\n")
		e.write("~/.copilot/hooks/user.json", copilotUserHook)
		index := copilotExtract(e)
		indexBefore, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		read := func(p string) mockmodel.Turn {
			return mockmodel.Turn{{Tool: "view", Input: map[string]any{"path": p}}}
		}
		write := func(p, text string) mockmodel.Turn {
			return mockmodel.Turn{{Tool: "create", Input: map[string]any{"path": p, "file_text": text}}}
		}
		edit := func(p, old, repl string) mockmodel.Turn {
			return mockmodel.Turn{{Tool: "edit", Input: map[string]any{"path": p, "old_str": old, "new_str": repl}}}
		}
		e.script(
			mockmodel.Turn{mockmodel.Shell(allowedCommand(e, "COPILOT_PROVIDER_API_KEY"))}, // call_1_0
			mockmodel.Turn{mockmodel.Shell("sh ./peek.sh")},                                // call_2_0
			mockmodel.Turn{mockmodel.Shell(deniedCommand)},                                 // call_3_0
			read(e.canary),                       // call_4_0
			read(filepath.Join(e.ws, "src.txt")), // call_5_0
			write(filepath.Join(e.home, "outside.txt"), evilText+"\n"),                  // call_6_0
			write(filepath.Join(e.home, ".copilot", "hooks", "evil.json"), copilotHook), // call_7_0
			write(filepath.Join(e.ws, "new.txt"), evilText+"\n"),                        // call_8_0
			edit(index, string(indexBefore[:40]), "process.exit(0);"),                   // call_9_0
			edit(filepath.Join(e.ws, "src.txt"), "WORKSPACE-TEXT", "EDITED-TEXT"),       // call_10_0
		)
		out, errs, code := e.launch("copilot", copilotSetup(e), "--yolo", "-p", "run the command")
		ctx := fmt.Sprintf("\nexit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		res := e.mock.Results()
		for id, r := range res {
			t.Logf("result %s: %.400q", id, r)
		}
		if code != 0 {
			t.Fatalf("launch copilot failed%s", ctx)
		}
		e.checkAllowed(res["call_1_0"], out, errs)
		if r := res["call_2_0"]; !strings.Contains(r, "script-ran") || !strings.Contains(r, "script-canary=unreadable") {
			t.Errorf("the workspace script did not run in the sandbox: %q%s", r, ctx)
		}
		e.checkDenied(res["call_3_0"])
		// The routed resume line, from the session Copilot kept in
		// ~/.copilot/session-state (its own line names bare copilot).
		if !strings.Contains(errs, "to resume this session in the sandbox:") || !strings.Contains(errs, "copilot -- --resume=") {
			t.Errorf("no routed resume line%s", ctx)
		}
		if e.mock.Saw(canaryText) {
			t.Errorf("the model received the ~/.ssh canary%s", ctx)
		}
		if r := res["call_4_0"]; !strings.Contains(r, "does not exist") || strings.Contains(r, canaryText) {
			t.Errorf("view of the canary was not refused: %q", r)
		}
		if b, err := os.ReadFile(e.canary); err != nil || !strings.Contains(string(b), canaryText) {
			t.Errorf("the canary is not on the host (%v): the check proves nothing", err)
		}
		if r := res["call_5_0"]; !strings.Contains(r, "WORKSPACE-TEXT") {
			t.Errorf("view of the workspace (the control) failed: %q", r)
		}
		// In the ring the write lands in the scratch home: gone at the
		// end, and named in the closing line.
		if _, err := os.Stat(filepath.Join(e.home, "outside.txt")); err == nil {
			t.Errorf("create wrote the home outside the workspace")
		}
		if !strings.Contains(errs, "~/outside.txt") {
			t.Errorf("the closing line does not name the dropped ~/outside.txt%s", ctx)
		}
		checkCopilotState(t, e, res, index, indexBefore, ctx)
	})
}

// checkCopilotState: Copilot's file tools could not write its own
// code-bearing state (a hook, its settings, the extracted CLI) and did
// write the workspace (the controls); the user's hook ran in the
// session's sandbox.
func checkCopilotState(t *testing.T, e *env, res map[string]string, index string, indexBefore []byte, ctx string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(e.home, ".copilot", "hooks", "evil.json")); err == nil {
		t.Errorf("create wrote a hook into Copilot's own ~/.copilot/hooks")
	}
	if b, _ := os.ReadFile(filepath.Join(e.home, ".copilot", "settings.json")); string(b) != "{}\n" {
		t.Errorf("Copilot's own settings.json changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(e.ws, "new.txt")); !strings.Contains(string(b), evilText) {
		t.Errorf("create of the workspace (the control) failed: %q%s", b, ctx)
	}
	hook, _ := os.ReadFile(filepath.Join(e.ws, "hook-out.txt"))
	if h := string(hook); !strings.Contains(h, "hook-ran") || !strings.Contains(h, "hook-canary=unreadable") ||
		!strings.Contains(h, "hook-key=absent") || strings.Contains(h, canaryText) {
		t.Errorf("the user's hook did not run in the session's sandbox: hook-out.txt %q", h)
	}
	// The CLI's extracted code, which the host runs at its next start.
	if b, _ := os.ReadFile(index); string(b) != string(indexBefore) {
		t.Errorf("edit changed the extracted CLI's index.js (%q)", res["call_9_0"])
	}
	if r := res["call_9_0"]; !strings.Contains(r, "EROFS") {
		t.Errorf("edit of the extracted CLI was not refused by the ring: %q", r)
	}
	if b, _ := os.ReadFile(filepath.Join(e.ws, "src.txt")); !strings.Contains(string(b), "EDITED-TEXT") {
		t.Errorf("edit of the workspace (the control) failed: %q (%q)", b, res["call_10_0"])
	}
}

// TestCopilotTUI (#30): Copilot's TUI under launch, in tmux, from a
// job-control shell, as root and as nobody: the folder's trust is asked
// and given for the session, a prompt gets the mock's shell call run in
// the session's sandbox and the answer rendered; Ctrl-Z gives the shell
// back with the job Stopped; fg brings it back and it takes keys again;
// /exit ends it with status 0 and the terminal as it was.
func TestCopilotTUI(t *testing.T) {
	asUsers(t, copilotEnv, "copilot", func(t *testing.T, e *env) {
		e.setCommand(allowedCommand(e, "COPILOT_PROVIDER_API_KEY"))
		env := append(copilotSetup(e), "TERM=xterm-256color")
		u := e.startTUI(env, "bash", "--norc", "--noprofile", "-i")
		prompt := func() bool {
			s := strings.TrimSpace(u.screen())
			return strings.HasSuffix(s, "$") || strings.HasSuffix(s, "#")
		}
		u.waitFor("the shell's prompt", prompt)
		u.typeText(fmt.Sprintf("%s launch --sandbox on copilot -- --yolo", binary), true)
		// A first start extracts the CLI (235 MB) into the scratch home:
		// a longer guard on a loaded machine.
		if !u.poll(3*time.Minute, u.shows("Do you trust the files in this folder?")) {
			t.Fatalf("Copilot's TUI did not start; the terminal shows:\n%s", u.screen())
		}
		u.keys("Enter") // 1. Yes (this session)
		u.waitScreen("Allow All")
		u.submit("run the command", "the answer", u.shows(finalText))
		t.Logf("the shell call's result: %q", e.mock.ToolResults())
		if b, err := os.ReadFile(filepath.Join(e.ws, "probe.txt")); err != nil || strings.TrimSpace(string(b)) != "PROBE" {
			t.Errorf("the shell call did not run: probe.txt %q, %v", b, err)
		}
		if r := e.mock.ToolResults(); len(r) == 0 || !strings.Contains(r[0], "canary=unreadable") {
			t.Errorf("the shell call did not run in the sandbox: %q", r)
		}
		if e.mock.Saw(canaryText) {
			t.Errorf("the model received the ~/.ssh canary")
		}
		u.keys("C-z")
		u.waitScreen("Stopped")
		u.waitFor("the shell's prompt after Ctrl-Z", prompt)
		u.typeText("fg", true)
		// Back and taking keys: what is typed after fg shows in its input.
		u.typeText("zqxj", false)
		u.waitFor("the typed keys in Copilot's input after fg", func() bool {
			for _, l := range strings.Split(u.screen(), "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "❯") && strings.HasSuffix(l, "zqxj") {
					return true
				}
			}
			return false
		})
		u.keys("C-u")
		u.submit("/exit", "the shell's prompt", prompt)
		u.typeText("exit", true)
		u.finish(0)
	})
}
