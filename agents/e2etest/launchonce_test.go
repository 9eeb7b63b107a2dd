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

// TestLaunchReadsOnce (#29): one `launch exec`, traced by strace (every
// process of it: the launcher, its judge, git, bwrap, the ring, the
// worker), reads the workspace's git state with one git call (the
// three users of the spec share one DetectHost) and the user's global
// git configuration with one (the worker and the ring bind one copy),
// and nothing opens the session's policy.toml to read it: the judge was
// given the frozen policy in memory. Positive controls: the traced
// launch ran its command through the judge (the file it wrote, with the
// identity of the copy), the trace shows the launcher writing
// policy.toml, and the one git call of each kind is there. As root and
// as nobody.
func TestLaunchReadsOnce(t *testing.T) {
	t.Parallel()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (apt-get install strace)")
	}
	users(t, func(t *testing.T, e *env) {
		// A repository whose config names a hooks directory: DetectHost
		// then asks git for core.hooksPath (sandbox/host.go), once per
		// read of the git state.
		for _, args := range [][]string{{"init", "-q", "."}, {"config", "core.hooksPath", ".githooks"}} {
			if out, err := exec.Command("git", append([]string{"-c", "safe.directory=*", "-C", e.ws}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		if err := os.WriteFile(filepath.Join(e.home, ".gitconfig"), []byte("[user]\n\tname = Once User\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// network = "off": the user-space network stack of "open" is
		// beside the point, and starts less reliably under ptrace.
		trace := filepath.Join(filepath.Dir(e.ws), "launch.trace")
		out, code := e.runWith([]string{strace, "-f", "-qq", "-e", "trace=execve,openat", "-e", "signal=none", "-o", trace,
			binary, "launch", "--sandbox", "on", "--network", "off", "exec", "--", "/bin/sh", "-c", "git config user.name > judged.txt"}, nil, nil)
		if code != 0 {
			t.Fatalf("traced launch: exit %d\n%s", code, out)
		}
		if b, err := os.ReadFile(filepath.Join(e.ws, "judged.txt")); err != nil || string(b) != "Once User\n" {
			t.Fatalf("control: the command did not run through the judge: %q, %v\n%s", b, err, out)
		}
		b, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		var gitReads, globalReads, policyWrites int
		for _, l := range strings.Split(string(b), "\n") {
			switch {
			case strings.Contains(l, "execve(") && strings.Contains(l, `"core.hooksPath"`) && !strings.Contains(l, "ENOENT"):
				gitReads++
			case strings.Contains(l, "execve(") && strings.Contains(l, `"--show-origin"`) && !strings.Contains(l, "ENOENT"):
				globalReads++
			case strings.Contains(l, "openat(") && strings.Contains(l, "/policy.toml"):
				if !strings.Contains(l, "O_WRONLY") {
					t.Errorf("policy.toml opened to read: %s", l)
				} else {
					policyWrites++
				}
			}
		}
		if policyWrites != 1 {
			t.Errorf("control: the trace shows policy.toml written %d times, want once (does strace see the launcher?)", policyWrites)
		}
		if gitReads != 1 {
			t.Errorf("the workspace's git state was read %d times by git, want once", gitReads)
		}
		if globalReads != 1 {
			t.Errorf("the user's global git configuration was read %d times by git, want once", globalReads)
		}
	})
}
