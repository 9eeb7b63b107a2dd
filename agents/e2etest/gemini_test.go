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

const geminiInstall = "npm install -g @google/gemini-cli@0.61.0"

// geminiSetup is the user's Gemini login against the mock model: an API
// key (security.auth.selectedType in the user's settings, which
// GOOGLE_GEMINI_BASE_URL alone does not select) and the workspace
// trusted (an untrusted folder drops --yolo, and with it the tools of a
// headless run). The launcher's GOOGLE_GEMINI_BASE_URL is the ring's
// provider.
func geminiSetup(e *env) []string {
	e.write("~/.gemini/settings.json", geminiSettings)
	e.write("~/.gemini/trustedFolders.json", fmt.Sprintf(`{%q:"TRUST_FOLDER"}`, e.ws))
	return []string{"GEMINI_API_KEY=" + secretKey, "GOOGLE_GEMINI_BASE_URL=" + e.mock.URL}
}

// geminiEnv is a ring env (home and workspace outside /tmp, which the
// ring hides) with the real Gemini CLI.
func geminiEnv(t *testing.T) *env {
	e := keepEnvWith(t, agentBin(t, "gemini", geminiInstall))
	e.canary = filepath.Join(e.home, ".ssh", "canary")
	e.write("~/.ssh/canary", canaryText+"\n")
	return e
}

const (
	geminiSettings = `{"security":{"auth":{"selectedType":"gemini-api-key"}},"ui":{"theme":"Default"}}`
	peekScript     = "d=.ssh; cat \"$HOME/$d/canary\" 2>&1 || echo script-canary=unreadable\necho script-ran\n"
)

// TestGemini (#30): `launch gemini` with the real CLI against the
// scripted model, in the agent ring, as root and as nobody. Its shell
// tool's commands go through the shim: an allowed one runs in the
// session's sandbox (it writes the workspace, cannot read the ~/.ssh
// canary nor see the API key), a workspace script the validator cannot
// read into cannot read the canary either, a refused one is explained in
// the next request and nothing of it runs. Its file tools (the whole
// home included with --include-directories, so that Gemini's own
// workspace check lets them through) are held by the ring: reading the
// canary, writing the home and its own settings fail, while reading and
// writing the workspace work (the positive controls).
func TestGemini(t *testing.T) {
	asUsers(t, geminiEnv, "gemini", func(t *testing.T, e *env) {
		e.write("peek.sh", peekScript)
		e.write("src.txt", "WORKSPACE-TEXT\n")
		read := func(p string) mockmodel.Turn {
			return mockmodel.Turn{{Tool: "read_file", Input: map[string]any{"file_path": p}}}
		}
		write := func(p string) mockmodel.Turn {
			return mockmodel.Turn{{Tool: "write_file", Input: map[string]any{"file_path": p, "content": evilText + "\n"}}}
		}
		e.script(
			mockmodel.Turn{mockmodel.Shell(allowedCommand(e, "GEMINI_API_KEY"))}, // call_1_0
			mockmodel.Turn{mockmodel.Shell("sh ./peek.sh")},                      // call_2_0
			mockmodel.Turn{mockmodel.Shell(deniedCommand)},                       // call_3_0
			read(e.canary),                                           // call_4_0
			read(filepath.Join(e.ws, "src.txt")),                     // call_5_0
			write(filepath.Join(e.home, "outside.txt")),              // call_6_0
			write(filepath.Join(e.home, ".gemini", "settings.json")), // call_7_0
			write(filepath.Join(e.ws, "new.txt")),                    // call_8_0
		)
		out, errs, code := e.launch("gemini", geminiSetup(e), "-m", "gemini-2.5-flash", "--yolo",
			"--include-directories", e.home, "-p", "run the command")
		ctx := fmt.Sprintf("\nexit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		res := e.mock.Results()
		for id, r := range res {
			t.Logf("result %s: %.400q", id, r)
		}
		if code != 0 {
			t.Fatalf("launch gemini failed%s", ctx)
		}
		e.checkAllowed(res["call_1_0"], out, errs)
		if r := res["call_2_0"]; !strings.Contains(r, "script-ran") || !strings.Contains(r, "script-canary=unreadable") {
			t.Errorf("the workspace script did not run in the sandbox: %q%s", r, ctx)
		}
		e.checkDenied(res["call_3_0"])
		if e.mock.Saw(canaryText) {
			t.Errorf("the model received the ~/.ssh canary%s", ctx)
		}
		// The ring's refusal (~/.ssh is hidden in it), not Gemini's own
		// workspace check, which --include-directories passed; the canary
		// is there on the host.
		if r := res["call_4_0"]; !strings.Contains(r, "File not found") || strings.Contains(r, "not in workspace") {
			t.Errorf("read_file of the canary was not refused by the ring: %q", r)
		}
		if b, err := os.ReadFile(e.canary); err != nil || !strings.Contains(string(b), canaryText) {
			t.Errorf("the canary is not on the host (%v): the check proves nothing", err)
		}
		if r := res["call_5_0"]; !strings.Contains(r, "WORKSPACE-TEXT") {
			t.Errorf("read_file of the workspace (the control) failed: %q", r)
		}
		// In the ring the write lands in the scratch home: gone at the
		// end, and named in the closing line.
		if _, err := os.Stat(filepath.Join(e.home, "outside.txt")); err == nil {
			t.Errorf("write_file wrote the home outside the workspace")
		}
		if !strings.Contains(errs, "~/outside.txt") {
			t.Errorf("the closing line does not name the dropped ~/outside.txt%s", ctx)
		}
		if b, _ := os.ReadFile(filepath.Join(e.home, ".gemini", "settings.json")); string(b) != geminiSettings {
			t.Errorf("write_file changed Gemini's own settings.json: %q", b)
		}
		if b, _ := os.ReadFile(filepath.Join(e.ws, "new.txt")); !strings.Contains(string(b), evilText) {
			t.Errorf("write_file of the workspace (the control) failed: %q%s", b, ctx)
		}
	})
}

// TestGeminiTUI (#30): Gemini's TUI under launch, in tmux, from a
// job-control shell, as root and as nobody: a prompt gets the mock's
// shell call run in the session's sandbox and the answer rendered; two
// Ctrl-Z (Gemini stops itself on the second) give the shell back with
// the job Stopped; fg brings it back and it takes keys again; /quit
// ends it with status 0 and the terminal as it was.
func TestGeminiTUI(t *testing.T) {
	asUsers(t, geminiEnv, "gemini", func(t *testing.T, e *env) {
		e.setCommand(allowedCommand(e, "GEMINI_API_KEY"))
		env := append(geminiSetup(e), "TERM=xterm-256color")
		u := e.startTUI(env, "bash", "--norc", "--noprofile", "-i")
		// bash's own prompt (bash-5.2$ or, as root, #).
		prompt := func() bool {
			s := strings.TrimSpace(u.screen())
			return strings.HasSuffix(s, "$") || strings.HasSuffix(s, "#")
		}
		u.waitFor("the shell's prompt", prompt)
		u.typeText(fmt.Sprintf("%s launch --sandbox on gemini -- -m gemini-2.5-flash --yolo", binary), true)
		const ready = "Type your message"
		// A Node TUI's first screen on a loaded machine: a longer guard.
		if !u.poll(3*time.Minute, u.shows(ready)) {
			t.Fatalf("Gemini's TUI did not start; the terminal shows:\n%s", u.screen())
		}
		u.submit("run the command", "the answer", u.shows(finalText))
		// The command ran (its file is in the workspace) and the model
		// never got the canary. Its output is not asserted here: Gemini's
		// TUI runs the tool on a pty, and once in a few runs its result
		// came back "(empty)" (NOTES.md); TestGemini asserts the output.
		t.Logf("the shell call's result: %q", e.mock.ToolResults())
		if b, err := os.ReadFile(filepath.Join(e.ws, "probe.txt")); err != nil || strings.TrimSpace(string(b)) != "PROBE" {
			t.Errorf("the shell call did not run: probe.txt %q, %v", b, err)
		}
		if e.mock.Saw(canaryText) {
			t.Errorf("the model received the ~/.ssh canary")
		}
		suspendGemini(t, u)
		u.typeText("fg", true)
		// Back and taking keys: what is typed after fg shows in its input
		// (a stopped agent, or a shell, would not draw it there).
		u.typeText("zqxj", false)
		u.waitFor("the typed keys in Gemini's input after fg", func() bool {
			for _, l := range strings.Split(u.screen(), "\n") {
				l = strings.TrimSpace(l)
				if strings.HasSuffix(l, "zqxj") && (strings.HasPrefix(l, ">") || strings.HasPrefix(l, "*")) {
					return true
				}
			}
			return false
		})
		u.keys("C-u")
		u.submit("/quit", "the shell's prompt", prompt)
		u.typeText("exit", true)
		u.finish(0)
	})
}

// suspendGemini presses Ctrl-Z twice, as a person does: Gemini stops
// itself on a second Ctrl-Z within its warning's time
// (WARNING_PROMPT_DURATION_MS), and on a loaded machine a second key
// sent once the warning shows can land after that window, which only
// shows the warning again. So it presses again, until the job is
// Stopped or the deadline passes.
func suspendGemini(t *testing.T, u *tui) {
	t.Helper()
	stopped := u.shows("Stopped")
	warned := u.shows("again to suspend")
	deadline := time.Now().Add(2 * time.Minute)
	for !stopped() {
		if time.Now().After(deadline) {
			t.Fatalf("two Ctrl-Z did not stop Gemini; the terminal shows:\n%s", u.screen())
		}
		u.keys("C-z")
		if u.poll(20*time.Second, func() bool { return stopped() || warned() }) && !stopped() {
			u.keys("C-z")
		}
		u.poll(10*time.Second, stopped)
	}
}
