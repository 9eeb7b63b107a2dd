// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// containerScript runs its arguments as a default, unprivileged
// container would (#28): a user namespace of the test's own (the
// caller's uid mapped to itself: root stays uid 0, nobody stays
// nobody) in which no further user namespace may be made, and every
// capability dropped, so that bwrap fails there. Nothing of the host's
// settings changes: the sysctl written is the namespace's own.
const containerScript = `echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all -- "$@"`

// container runs lite-sandbox ARGS in the simulated container as e's
// user, in the workspace, and returns stdout, stderr and the status.
func (e *env) container(args ...string) (string, string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := e.lsCmd(ctx)
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		e.t.Skip("needs unshare")
	}
	cmd.Path = unshare
	cmd.Args = containerArgv(append([]string{binary}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	e.chownTree()
	err = cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("container lite-sandbox %v: timed out\n%s%s", args, out.String(), errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("container lite-sandbox %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// landlockProbe is a workspace script the validator sees only as
// `sh probe.sh`: it tries to read the home's canaries (~/.ssh, another
// agent's credentials), from the shell and from /usr/bin/python3 (a
// program that is no shell), to connect to a host Unix socket by its
// path (a D-Bus or systemd manager would run code outside any sandbox,
// class 17), to write outside the workspace and to
// protected paths inside it (an existing .git/hooks, a missing .envrc); and,
// as positive controls, writes in the workspace, reads a system file
// and writes its TMPDIR.
func landlockProbe(home, outside string) string {
	return fmt.Sprintf(`h=%[1]s; d=.ssh; c=.codex
cat "$h/$d/canary" 2>/dev/null && echo LEAK-ssh
cat "$h/$c/auth.json" 2>/dev/null && echo LEAK-codex
/usr/bin/python3 -c 'import os,sys
try:
    print(open(os.path.join(sys.argv[1], ".ss"+"h", "canary")).read(), "LEAK-python")
except OSError as e:
    print("python-denied", e.errno)' "$h"
/usr/bin/python3 -c 'import socket,sys
try:
    socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print("LEAK-unix")
except OSError as e:
    print("unix-refused", e.errno)' %[2]s/host.sock
(echo pwned > "$h/.bashrc") 2>/dev/null && echo WROTE-bashrc
(echo pwned > %[2]s/x) 2>/dev/null && echo WROTE-outside
(echo pwned > .git/hooks/pre-commit) 2>/dev/null && echo WROTE-hook
(echo pwned > .envrc) 2>/dev/null && echo WROTE-envrc
echo ok > out/w.txt && echo ws-write-ok
head -c 4 /usr/bin/env >/dev/null && echo sys-read-ok
echo t > "$TMPDIR/t" && echo tmp-ok
`, home, outside)
}

// checkConfined asserts what landlockProbe proves inside a sandbox.
func checkConfined(t *testing.T, what, out, errs string) {
	t.Helper()
	// A write may land in bwrap's scratch home; what counts is the
	// host's file (noWrites).
	for _, bad := range []string{"LEAK-", canaryText, "CODEX-CANARY"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s: %q in the output: the sandbox let it through\n%s%s", what, bad, out, errs)
		}
	}
	for _, want := range []string{"python-denied", "unix-refused", "ws-write-ok", "sys-read-ok", "tmp-ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: no %q (the positive control)\n%s%s", what, want, out, errs)
		}
	}
	if strings.Contains(errs, "UNSANDBOXED") {
		t.Errorf("%s ran unsandboxed:\n%s", what, errs)
	}
}

// TestLandlockContainer (#28): in a simulated container (no user
// namespaces, no capabilities), as root and as nobody, `run` and a
// session's command run under the Landlock backend: they read nothing
// of the home and write nothing outside the workspace, and still run
// (workspace write, system read, TMPDIR); doctor names the backend,
// its ABI and what it lacks. The probe's cache is believed only where
// it was measured: after the container's doctor the host's run is
// bwrap's, and after the host's the container's still runs and
// confines. The control: the same script on the host reads the
// canaries and writes outside.
func TestLandlockContainer(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv")
	}
	users(t, func(t *testing.T, e *env) {
		_, agentsh, written := landlockFixture(t, e)

		out, errs, code := e.container("doctor")
		if code != 0 || !strings.Contains(out, "backend: landlock backend (ABI ") || !strings.Contains(out, "lacks no private /tmp") ||
			!strings.Contains(out, "chosen because bwrap cannot create a sandbox here") {
			t.Fatalf("container doctor: exit %d, no landlock backend line:\n%s%s", code, out, errs)
		}

		noWrites := func(what string) {
			t.Helper()
			// bwrap's placeholder of a missing protected file is left
			// empty on the host while it runs: only content counts.
			for _, p := range written {
				if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
					t.Errorf("%s: %s was written on the host", what, p)
				}
			}
		}

		// The container's probe is not believed on the host: bwrap there.
		out, errs, code = e.run(nil, "sh", "probe.sh")
		if code != 0 || strings.Contains(errs, "landlock backend") {
			t.Errorf("host run after the container's doctor: exit %d, not bwrap:\n%s", code, errs)
		}
		checkConfined(t, "host run", out, errs)
		noWrites("host run")

		// Nor the host's in the container: Landlock there, mode on.
		out, errs, code = e.container("run", "--sandbox", "on", "--", "sh", "probe.sh")
		if code != 0 || !strings.Contains(errs, "lite-sandbox: landlock backend (ABI ") {
			t.Errorf("container run: exit %d, no landlock line first:\n%s", code, errs)
		}
		checkConfined(t, "container run", out, errs)
		noWrites("container run")
		if !strings.Contains(out, "python-denied 13") {
			t.Errorf("container run: python's read was not refused with EACCES (Landlock):\n%s", out)
		}

		// A session's command in the container.
		out, errs, code = e.container("launch", "--sandbox", "on", "exec", "--", agentsh, "-c", `$SHELL -c "sh probe.sh"`)
		if code != 0 || !strings.Contains(errs, "landlock backend (ABI ") {
			t.Errorf("container session: exit %d, no landlock line:\n%s", code, errs)
		}
		checkConfined(t, "container session command", out, errs)
		noWrites("container session command")
	})
}

// landlockFixture writes the canaries, the probe, a stand-in agent (a
// copy of bash outside the workspace) and a host Unix socket, and runs
// the probe on the host (the control: it reads and writes everything
// there). It returns the outside directory, the agent and the paths a
// sandbox must not write.
func landlockFixture(t *testing.T, e *env) (outside, agentsh string, written []string) {
	t.Helper()
	outside = filepath.Join(filepath.Dir(e.ws), "outside")
	mustWrite(t, filepath.Join(outside, ".keep"), "")
	mustWrite(t, filepath.Join(e.home, ".codex", "auth.json"), `{"token":"CODEX-CANARY"}`+"\n")
	mustWrite(t, filepath.Join(e.ws, "out", ".keep"), "")
	mustWrite(t, filepath.Join(e.ws, ".git", "hooks", ".keep"), "")
	written = []string{filepath.Join(e.home, ".bashrc"), filepath.Join(outside, "x"),
		filepath.Join(e.ws, ".git", "hooks", "pre-commit"), filepath.Join(e.ws, ".envrc")}
	e.write("probe.sh", landlockProbe(e.home, outside))
	agentsh = filepath.Join(filepath.Dir(e.ws), "agentsh")
	bash, err := os.ReadFile("/bin/bash")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(agentsh, bash, 0o755); err != nil {
		t.Fatal(err)
	}

	sock := filepath.Join(outside, "host.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := os.Chmod(sock, 0o777); err != nil {
		t.Fatal(err)
	}

	// Control: on the host the probe reads and writes everything.
	e.chownTree()
	host := exec.Command("sh", "probe.sh")
	host.Dir, host.Env = e.ws, append(e.vars, "TMPDIR="+outside)
	e.credential(host)
	o, _ := host.CombinedOutput()
	for _, want := range []string{"LEAK-ssh", "LEAK-codex", "LEAK-python", "LEAK-unix", "WROTE-bashrc", "WROTE-outside", "WROTE-hook", "WROTE-envrc"} {
		if !strings.Contains(string(o), want) {
			t.Fatalf("control: the probe on the host lacks %q:\n%s", want, o)
		}
	}
	for _, p := range written {
		os.Remove(p)
	}

	return outside, agentsh, written
}

// TestLandlockNetworkOff (#28): with network off, a program in the
// simulated container's Landlock sandbox cannot connect to a TCP
// service on the host's loopback (Landlock ABI 4; classes 20, 28); the
// control, the same probe with the network open, connects.
func TestLandlockNetworkOff(t *testing.T) {
	t.Parallel()
	if confine.Probe().LandlockABI < 4 {
		t.Skip("no Landlock TCP rules on this kernel (ABI 4)")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	port := l.Addr().(*net.TCPAddr).Port
	users(t, func(t *testing.T, e *env) {
		e.write("tcp.sh", fmt.Sprintf(`/usr/bin/python3 -c 'import socket
try:
    socket.create_connection(("127.0.0.1", %d), timeout=10); print("tcp-connected")
except OSError as e:
    print("tcp-refused", e.errno)'
`, port))
		out, errs, code := e.container("run", "--sandbox", "on", "--network", "off", "--", "sh", "tcp.sh")
		if code != 0 || !strings.Contains(out, "tcp-refused") || !strings.Contains(errs, "landlock backend") {
			t.Errorf("network off: exit %d, want tcp-refused under landlock:\n%s%s", code, out, errs)
		}
		out, errs, code = e.container("run", "--sandbox", "on", "--network", "open", "--", "sh", "tcp.sh")
		if code != 0 || !strings.Contains(out, "tcp-connected") {
			t.Errorf("control, network open: exit %d, want tcp-connected:\n%s%s", code, out, errs)
		}
	})
}
