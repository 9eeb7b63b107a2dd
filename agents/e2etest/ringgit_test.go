// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitExecPath is git's exec path as this host's git reports it
// (/usr/lib/git-core on Debian), where git itself lives a second time.
func gitExecPath(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatalf("git --exec-path: %v", err)
	}
	core := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(core, "git")); err != nil {
		t.Skipf("no git in git's exec path %s: %v", core, err)
	}
	return core
}

// TestRingGitExecPath: git in git's exec path (/usr/lib/git-core/git, as
// `git --exec-path` says) is the shim in the ring as /usr/bin/git is: the
// repository's core.fsmonitor program it would run runs in the command
// sandbox, not in the ring (#25 finding 8, class 59). A dashed name of
// git there (git-upload-pack) is judged as `git upload-pack` (the audit
// log holds it). Controls: the same git on the host runs the program on
// the host; /usr/bin/git status in the ring is routed the same way.
func TestRingGitExecPath(t *testing.T) {
	core := gitExecPath(t)
	users(t, func(t *testing.T, e *env) {
		e.sentinel()
		if out, err := exec.Command("git", "-c", "safe.directory=*", "init", "-q", e.ws).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
		prog := filepath.Join(e.ws, fsmonName)
		b, err := os.ReadFile(probeBinary)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(prog, b, 0o755); err != nil {
			t.Fatal(err)
		}
		spec := func(name string) {
			os.WriteFile(prog+".spec", []byte(strings.Join([]string{e.home, e.ws, filepath.Dir(e.ws), name}, "\n")), 0o644)
		}
		if out, err := exec.Command("git", "-c", "safe.directory=*", "-C", e.ws, "config", "core.fsmonitor", prog).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v: %s", err, out)
		}
		if e.cred != nil {
			e.unprivileged()
		}
		git := filepath.Join(core, "git")
		spec("core-host")
		host := exec.Command(git, "status", "--short")
		host.Dir = e.ws
		host.Env = append(append([]string{}, e.vars...), "GIT_CONFIG_GLOBAL=/dev/null")
		e.credential(host)
		if out, err := host.CombinedOutput(); err != nil {
			t.Fatalf("%s status on the host: %v\n%s", git, err, out)
		}
		if why := e.sandboxed("core-host"); !strings.Contains(why, "PID 1") {
			t.Fatalf("%s on the host did not run the fsmonitor on the host (the control): %q (facts %v)", git, why, e.probeFacts("core-host"))
		}
		for _, c := range []struct{ name, git string }{{"core-ring", git}, {"usr-ring", "/usr/bin/git"}} {
			spec(c.name)
			out, errs, code := e.launch("exec", nil, c.git, "status", "--short")
			if code != 0 {
				t.Logf("%s status in the ring: exit %d\n%s\n%s", c.git, code, out, errs)
			}
			e.checkProbe(c.name, out, errs)
		}
		up := filepath.Join(core, "git-upload-pack")
		if _, err := os.Stat(up); err != nil {
			return
		}
		out, errs, code := e.launch("exec", nil, up, "--advertise-refs", e.ws)
		audit, _ := os.ReadFile(filepath.Join(e.home, ".local", "state", "lite-sandbox", "audit.jsonl"))
		if !strings.Contains(string(audit), "git upload-pack --advertise-refs") {
			t.Errorf("%s in the ring was not judged as git upload-pack (exit %d)\nstdout:\n%s\nstderr:\n%s\naudit:\n%s", up, code, out, errs, audit)
		}
	})
}
