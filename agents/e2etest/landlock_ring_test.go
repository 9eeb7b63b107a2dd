// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// landlockRingProbe is a program that is no shell (/usr/bin/python3), run as
// the agent of `launch exec` in the Landlock agent ring (#28). It prints
// one word per check: a refusal (its errno) or a LEAK-/WROTE-/RAN- word
// when the ring let it through; and, as positive controls, that it
// reads and writes the workspace, reaches its proxy's port, and that its
// shell ($SHELL, the shim, with descriptor 3 or without it, as
// Python's subprocess closes it: its judge connection is the
// launcher's answer to the ring filter's notification) runs a command
// in the command sandbox, where the
// validator refuses a literal ~/.ssh read (77) and allows a workspace
// write.
const landlockRingProbe = `import os, socket, subprocess, sys
home, outside, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
def attempt(word, fn):
    try:
        fn(); print(word)
    except OSError as e:
        print(word.split("-", 1)[1] + "-refused", e.errno)
attempt("LEAK-ssh", lambda: open(os.path.join(home, ".ss" + "h", "canary")).read())
attempt("LEAK-codex", lambda: open(os.path.join(home, ".codex", "auth.json")).read())
attempt("LEAK-homelist", lambda: os.listdir(home))
attempt("WROTE-bashrc", lambda: open(os.path.join(home, ".bashrc"), "w").write("pwned"))
attempt("WROTE-outside", lambda: open(os.path.join(outside, "x"), "w").write("pwned"))
for sh in ["/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/dash"]:
    attempt("RAN-" + sh.replace("/", "_"), lambda: subprocess.run([sh, "-c", "true"], check=True))
attempt("READ-bash", lambda: open("/usr/bin/bash", "rb").read(4))
attempt("LEAK-unix", lambda: socket.socket(socket.AF_UNIX).connect(os.path.join(outside, "host.sock")))
attempt("LEAK-tcp", lambda: socket.create_connection(("127.0.0.1", port), timeout=10))
attempt("GOT-judgedgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM, 0x4c53))
try:
    print("judge-conn", socket.socket(socket.AF_UNIX, socket.SOCK_STREAM, 0x4c53).getpeername().endswith("judge.sock"))
except OSError as e:
    print("judge-conn-refused", e.errno)
print("ws-read-ok" if open("in.txt").read() == "hello\n" else "ws-read-wrong")
open("out/ring.txt", "w").write("ring\n"); print("ws-write-ok")
p = int(os.environ["HTTP_PROXY"].rsplit(":", 1)[1])
socket.create_connection(("127.0.0.1", p), timeout=10).close(); print("proxy-ok")
sh = os.environ["SHELL"]
r = subprocess.run([sh, "-c", "echo via-shim > out/shim.txt"], pass_fds=(3,))
print("shim-status", r.returncode)
r = subprocess.run([sh, "-c", "cat ~/.ssh/canary"], capture_output=True)
print("shim-denied", r.returncode)
`

// TestLandlockRing (#28): in the simulated container (no user
// namespaces, no capabilities), as root and as nobody, `launch exec`
// runs a program that is no shell in the Landlock agent ring: it reads
// nothing of the home (the ~/.ssh canary, another agent's credentials,
// the home's listing), writes nothing outside the workspace, cannot run
// or read a real shell (/bin/bash, /bin/sh), reaches no host Unix
// socket and no host TCP port but its proxy's; and still runs (it reads
// and writes the workspace, reaches its proxy, and its shell, the shim,
// runs commands through the judge in the command sandbox: a workspace
// write lands, the validator refuses a ~/.ssh read). Its one Unix
// socket is the judge's, made by the launcher for the ring filter's
// notification; any other form of that call is refused. The controls: the
// same checks on the host get through (landlockFixture), and the
// session's first line names the Landlock ring.
func TestLandlockRing(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 4 {
		t.Skip("needs Landlock TCP rules (ABI 4)")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv")
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("needs /usr/bin/python3")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	port := l.Addr().(*net.TCPAddr).Port
	users(t, func(t *testing.T, e *env) {
		outside, _, written := landlockFixture(t, e)
		e.write("in.txt", "hello\n")
		e.write("ring.py", landlockRingProbe)
		// Control: on the host the program gets through where the ring
		// must refuse it.
		host := exec.Command("/usr/bin/python3", "ring.py", e.home, outside, fmt.Sprint(port))
		host.Dir, host.Env = e.ws, append(e.vars, "HTTP_PROXY=http://127.0.0.1:"+fmt.Sprint(port), "SHELL=/bin/sh")
		e.chownTree()
		e.credential(host)
		o, _ := host.CombinedOutput()
		for _, want := range []string{"LEAK-ssh", "LEAK-codex", "LEAK-homelist", "RAN-_bin_bash", "READ-bash", "LEAK-unix", "LEAK-tcp"} {
			if !strings.Contains(string(o), want) {
				t.Fatalf("control: the program on the host lacks %q:\n%s", want, o)
			}
		}
		for _, p := range append(written, filepath.Join(e.ws, "out", "ring.txt"), filepath.Join(e.ws, "out", "shim.txt")) {
			os.Remove(p)
		}

		out, errs, code := e.container("launch", "--sandbox", "on", "exec", "--", "/usr/bin/python3", "ring.py", e.home, outside, fmt.Sprint(port))
		if code != 0 || !strings.Contains(errs, "landlock backend (ABI ") || !strings.Contains(errs, "agent ring: landlock") ||
			!strings.Contains(errs, "the program itself runs in the Landlock agent ring") {
			t.Fatalf("container launch exec: exit %d, no landlock ring:\n%s%s", code, out, errs)
		}
		t.Logf("ring:\n%s%s", out, errs)
		dout, derrs, dcode := e.container("doctor")
		if dcode != 0 || !strings.Contains(dout, "agent ring: the agent and all it starts confined by Landlock rules") {
			t.Errorf("container doctor: exit %d, no Landlock ring line:\n%s%s", dcode, dout, derrs)
		}
		for _, bad := range []string{"LEAK-", "WROTE-", "RAN-", "READ-", "GOT-", canaryText, "CODEX-CANARY"} {
			if strings.Contains(out, bad) {
				t.Errorf("ring: %q: the ring let it through\n%s%s", bad, out, errs)
			}
		}
		for _, want := range []string{"ssh-refused 13", "codex-refused 13", "homelist-refused 13", "bashrc-refused 13", "outside-refused 13",
			"_bin_bash-refused 13", "_bin_sh-refused 13", "bash-refused 13", "unix-refused", "tcp-refused 13",
			"ws-read-ok", "ws-write-ok", "proxy-ok", "shim-status 0", "shim-denied 77",
			// The ring filter's one Unix socket: a connection to the
			// judge, made by the launcher; the same call for a datagram
			// socket is refused by the launcher.
			"judge-conn True", "judgedgram-refused 1"} {
			if !strings.Contains(out, want) {
				t.Errorf("ring: no %q\n%s%s", want, out, errs)
			}
		}
		for _, p := range written {
			if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
				t.Errorf("ring: %s was written on the host", p)
			}
		}
		if b, err := os.ReadFile(filepath.Join(e.ws, "out", "shim.txt")); err != nil || string(b) != "via-shim\n" {
			t.Errorf("ring: the shim's command wrote %q, %v; want via-shim", b, err)
		}
		if b, err := os.ReadFile(filepath.Join(e.ws, "out", "ring.txt")); err != nil || string(b) != "ring\n" {
			t.Errorf("ring: the program's workspace write: %q, %v", b, err)
		}
	})
}

// landlockAgents are the agents TestLandlockAgents runs in the Landlock
// ring: the pinned CLI, the variable it logs in with, its setup against
// the mock model (which writes its configuration and returns its
// environment) and its one-turn, non-interactive arguments.
//
// Codex runs every command with its user's passwd shell (/bin/bash
// here), which the Landlock ring cannot replace by the shim (no mount)
// and refuses to execute (class 47): its commands fail closed
// (noShell), nothing of them runs (docs/ring.md "The Landlock ring").
var landlockAgents = []struct {
	name, install, key string
	setup              func(e *env) []string
	args               []string
	noShell            bool
}{
	{"claude", "npm install -g @anthropic-ai/claude-code@2.1.197", "ANTHROPIC_API_KEY", claudeEnv,
		[]string{"-p", "run the command", "--dangerously-skip-permissions", "--output-format", "json"}, false},
	{"codex", "npm install -g @openai/codex@0.171.0", "MOCK_API_KEY", codexSetup,
		[]string{"exec", "--skip-git-repo-check", "--json", "--disable", "plugins", "-c", "analytics.enabled=false",
			"--disable", "unbounded_connection_retries", "run the command"}, true},
	{"pi", "npm install -g @mariozechner/pi-coding-agent@0.73.1", "MOCK_API_KEY", piSetup,
		[]string{"--provider", "mock", "--model", "mock-model", "--no-session", "-p", "run the command"}, false},
}

// TestLandlockAgents (#28): Claude Code, Codex and Pi, the pinned CLIs
// against the mock model, each complete a turn in the Landlock agent
// ring of the simulated container, as root and as nobody: the model's
// shell command goes through the agent's shell (the shim) to the
// command sandbox, where the ~/.ssh canary is unreadable and the API key
// absent, while the command's workspace write lands (the positive
// control), and the answer comes back through the agent's proxy. Codex
// starts and answers, but its shell is refused (landlockAgents).
func TestLandlockAgents(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 4 {
		t.Skip("needs Landlock TCP rules (ABI 4)")
	}
	needContainer(t)
	for _, a := range landlockAgents {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			bin := agentBin(t, a.name, a.install)
			mk := func(t *testing.T) *env {
				e := newEnv(t, bin, "")
				e.setCommand(allowedCommand(e, a.key))
				return e
			}
			asUsers(t, mk, a.name, func(t *testing.T, e *env) {
				e.vars = append(e.vars, a.setup(e)...)
				out, errs, code := e.container(append([]string{"launch", "--sandbox", "on", a.name, "--"}, a.args...)...)
				if code != 0 || !strings.Contains(errs, "agent ring: landlock") {
					t.Fatalf("%s in the Landlock ring: exit %d\nstdout:\n%s\nstderr:\n%s", a.name, code, out, errs)
				}
				res := e.result(out, errs)
				if !a.noShell {
					e.checkAllowed(res, out, errs)
					return
				}
				// The turn completes (the answer came through the
				// agent's proxy), the command's shell is refused, and
				// nothing of it ran.
				if !strings.Contains(out, finalText) || !strings.Contains(res, "Permission denied") || strings.Contains(res, canaryText) {
					t.Errorf("%s: want the final answer and the shell refused:\n%s\nstdout:\n%s\nstderr:\n%s", a.name, res, out, errs)
				}
				e.absent("probe.txt")
			})
		})
	}
}
