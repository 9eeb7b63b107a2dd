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
)

// The routes of #8: whatever starts a shell (a hook, an MCP server, the
// TUI's `!cmd`, a model-chosen shell) must end in the command sandbox,
// not merely in the agent ring. A probe is a shell line that records
// what it sees in a marker file in the workspace (writable in the ring
// and in the command sandbox alike), and checkProbe tells the two apart:
//
//   - pid1: the command sandbox has a PID namespace of its own (bwrap is
//     PID 1), and so has the ring since #17; the host's PID 1 is not
//     bwrap;
//   - home: the command sandbox's home is the scratch home, so the
//     sentinel in the user's home (in ~/.config/git, the git identity
//     directory) is not there; the ring shows that directory (read-only).
//     Not ~/.gitconfig: the command sandbox shows a copy of it (#31);
//   - canary: the ~/.ssh canary is unreadable in both;
//   - outside: a file created next to the workspace never reaches the host
//     (both layers refuse or divert it).
//
// TestProbeControl runs the same probe on the host and in the ring alone
// (through a program that is not a shell), and checks that checkProbe's
// facts then differ: the route tests can fail.

const sentinelName = ".config/git/probe-sentinel"

// probe returns a shell line that writes the marker named name.
func (e *env) probe(name string) string {
	// The canary's path goes through a variable so that the validator,
	// which denies the literal ~/.ssh path, lets it through: the OS must
	// hide it. Every word is plain enough for any hook's JSON.
	return fmt.Sprintf(`d=.ssh; { echo pid1=$(cat /proc/1/comm); if test -e %[1]s/%[2]s; then echo home=real; else echo home=scratch; fi; `+
		`if cat %[1]s/$d/canary >/dev/null 2>&1; then echo canary=read; else echo canary=unreadable; fi; `+
		`echo x > %[3]s/outside-%[4]s 2>/dev/null; echo done; } > %[5]s/.marker-%[4]s`,
		e.home, sentinelName, filepath.Dir(e.ws), name, e.ws)
}

// sentinel creates the file in the user's home that the command sandbox
// must not see.
func (e *env) sentinel() {
	e.write("~/"+sentinelName, "[user]\n\tname = Probe\n\temail = probe@example.invalid\n")
}

// probeFacts reads the marker named name, or nil when the probe never ran.
func (e *env) probeFacts(name string) map[string]string {
	b, err := os.ReadFile(filepath.Join(e.ws, ".marker-"+name))
	if err != nil {
		return nil
	}
	facts := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		facts[k] = v
	}
	return facts
}

// probeDone reports whether the probe named name has finished writing
// its marker: the marker exists from the probe's first write on, so a
// test that waits for a probe run in the background (a TUI's !cmd) must
// wait for its last line, not for the file.
func (e *env) probeDone(name string) func() bool {
	return func() bool { _, ok := e.probeFacts(name)["done"]; return ok }
}

// hostPID1 is the name of the host's PID 1, which only the ring sees.
func hostPID1(t *testing.T) string {
	b, err := os.ReadFile("/proc/1/comm")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// sandboxed reports why the probe named name did not run in the command
// sandbox ("" when it did).
func (e *env) sandboxed(name string) string {
	f := e.probeFacts(name)
	if f == nil {
		return "the probe never ran (no marker)"
	}
	var why []string
	if _, ok := f["done"]; !ok {
		why = append(why, "the probe did not finish")
	}
	if f["pid1"] == hostPID1(e.t) || f["pid1"] == "" {
		why = append(why, fmt.Sprintf("it saw the host's PID 1 (%q): no PID namespace, so not the command sandbox", f["pid1"]))
	}
	if f["home"] != "scratch" {
		why = append(why, "it saw the user's home, not the scratch home")
	}
	if f["canary"] != "unreadable" {
		why = append(why, "it read the ~/.ssh canary")
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(e.ws), "outside-"+name)); err == nil {
		why = append(why, "it wrote a file outside the workspace on the host")
	}
	return strings.Join(why, "; ")
}

// checkProbe asserts that the probe named name ran in the command sandbox.
func (e *env) checkProbe(name, stdout, stderr string) {
	e.t.Helper()
	if why := e.sandboxed(name); why != "" {
		e.t.Errorf("route %s: %s (facts %v)\nstdout:\n%.3000s\nstderr:\n%.3000s", name, why, e.probeFacts(name), stdout, stderr)
	}
}

// TestProbeControl: the probe run by a shell on the host, and by the
// ring alone, is not "sandboxed"; so each route test fails when its route
// escapes to either.
func TestProbeControl(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", "")
	e.sentinel()
	if out, err := exec.Command("/bin/sh", "-c", e.probe("host")).CombinedOutput(); err != nil {
		t.Fatalf("probe on the host: %v\n%s", err, out)
	}
	if why := e.sandboxed("host"); !strings.Contains(why, "PID 1") || !strings.Contains(why, "home") || !strings.Contains(why, "canary") || !strings.Contains(why, "outside") {
		t.Errorf("the probe on the host passes as sandboxed: %q", why)
	}
	// In the ring every shell is the shim, so the ring alone is reached
	// by a program that is not a shell: this test binary, which runs the
	// probe's checks itself (ringProbe).
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e.vars = append(e.vars, ringProbeEnv+"="+strings.Join([]string{e.home, e.ws, filepath.Dir(e.ws), "ring"}, "\n"))
	out, errs, code := e.launch("exec", nil, self)
	if code != 0 {
		t.Fatalf("launch exec of the ring probe: exit %d\n%s\n%s", code, out, errs)
	}
	why := e.sandboxed("ring")
	if !strings.Contains(why, "home") {
		t.Errorf("the probe in the ring alone passes as the command sandbox: %q (facts %v)", why, e.probeFacts("ring"))
	}
	// #17: the ring has a PID namespace of its own.
	if strings.Contains(why, "PID 1") {
		t.Errorf("the ring shares the host's PID namespace: %q (facts %v)", why, e.probeFacts("ring"))
	}
	if strings.Contains(why, "canary") || strings.Contains(why, "outside") {
		t.Errorf("the ring itself let the probe read the canary or write outside: %q", why)
	}
	// And the positive control: /bin/sh in the ring is the shim.
	out, errs, code = e.launch("exec", nil, "/bin/sh", "-c", e.probe("sh"))
	if code != 0 {
		t.Fatalf("launch exec /bin/sh -c probe: exit %d\n%s\n%s", code, out, errs)
	}
	e.checkProbe("sh", out, errs)
}

// TestRingClearedEnv: a shell started in the ring with a cleared
// environment (Codex starts its MCP servers so; a hook may env -i) has
// lost LITE_SANDBOX_SESSION, yet runs in the session's command sandbox
// (before the fix it found no session, could not sandbox itself inside
// the ring, and failed).
func TestRingClearedEnv(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "", "")
	e.sentinel()
	out, errs, code := e.launch("exec", nil, "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME="+e.home, "sh", "-c", e.probe("env-i"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	e.checkProbe("env-i", out, errs)
}

// ringProbeEnv makes the test binary act as the probe without a shell:
// home, workspace, the workspace's parent and the marker name, one a line.
const ringProbeEnv = "LITE_SANDBOX_RING_PROBE"

func ringProbe(spec string) int {
	p := strings.Split(spec, "\n")
	home, ws, parent, name := p[0], p[1], p[2], p[3]
	pid1, _ := os.ReadFile("/proc/1/comm")
	var b strings.Builder
	fmt.Fprintf(&b, "pid1=%s\n", strings.TrimSpace(string(pid1)))
	if _, err := os.Stat(filepath.Join(home, sentinelName)); err == nil {
		b.WriteString("home=real\n")
	} else {
		b.WriteString("home=scratch\n")
	}
	if _, err := os.ReadFile(filepath.Join(home, ".ssh", "canary")); err == nil {
		b.WriteString("canary=read\n")
	} else {
		b.WriteString("canary=unreadable\n")
	}
	os.WriteFile(filepath.Join(parent, "outside-"+name), []byte("x\n"), 0o644)
	b.WriteString("done\n")
	if err := os.WriteFile(filepath.Join(ws, ".marker-"+name), []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
