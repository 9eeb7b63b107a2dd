// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// holdSandbox plays the launcher: it prepares a sandbox of ws, starts it
// (sleeping), prints "ready" and waits to be killed.
func holdSandbox(ws string) {
	b, err := sandbox.Detect()
	if err != nil {
		os.Exit(3)
	}
	s, err := policy.Default().SandboxSpec(ws, os.Getenv("LITE_SANDBOX_TEST_HOME"), "")
	if err != nil {
		os.Exit(3)
	}
	p, err := sandbox.Prepare(b, s, []string{"/bin/sleep", "60"})
	if err != nil {
		os.Exit(3)
	}
	cmd := exec.Command(p.Path)
	cmd.Args = p.Args
	if err := cmd.Start(); err != nil {
		os.Exit(3)
	}
	time.Sleep(300 * time.Millisecond)
	os.Stdout.WriteString("ready\n")
	cmd.Wait()
	os.Exit(0)
}

// TestPlaceholdersAfterKill: after SIGKILL of the process that held a
// sandbox, the next sandbox of the workspace removes the placeholders it
// left, never what the user put there since, and then its own; the
// workspace's lock file goes with its last user.
func TestPlaceholdersAfterKill(t *testing.T) {
	b := requireBwrap(t)
	home, ws := fakeHome(t)
	newRepo(t, ws)
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "LITE_SANDBOX_TEST_HOLD="+ws, "LITE_SANDBOX_TEST_HOME="+home)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("holder did not start: %q", line)
	}
	for _, p := range []string{".envrc", ".vscode", ".npmrc", ".mcp.json", ".git/commondir"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err != nil {
			t.Fatalf("placeholder %s missing while the sandbox runs: %v", p, err)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	time.Sleep(100 * time.Millisecond) // bwrap dies with its parent

	// The user puts their own files where placeholders were.
	os.Remove(filepath.Join(ws, ".envrc"))
	os.WriteFile(filepath.Join(ws, ".envrc"), nil, 0o644) // empty, but a new file
	os.WriteFile(filepath.Join(ws, ".vscode", "settings.json"), []byte("{}"), 0o644)

	r := runConfined(t, b, specFor(t, ws, home, nil), runOpts{}, "true")
	if r.code != 0 {
		t.Fatalf("run: %v", r)
	}
	for _, p := range []string{".npmrc", ".mcp.json", ".git/commondir", ".claude", ".devcontainer.json", ".git/config.worktree"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Errorf("placeholder %s left behind", p)
		}
	}
	for _, p := range []string{".envrc", ".vscode/settings.json"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err != nil {
			t.Errorf("the user's %s was removed", p)
		}
	}
	if st := gitHost(t, ws, "status", "--porcelain"); st != "?? .envrc\n?? .vscode/" && st != "?? .envrc\n?? .vscode/settings.json" {
		t.Errorf("host git status: %q", st)
	}
	dir := filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "lite-sandbox-locks")
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		dir = filepath.Join(os.TempDir(), "lite-sandbox-locks-"+strconv.Itoa(os.Getuid()))
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".placeholders") {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			if strings.Contains(string(data), ws) {
				t.Errorf("record %s left: %s", e.Name(), data)
			}
		}
	}
}
