// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// holdSandbox plays the launcher: it prepares a sandbox of ws, starts it
// (sleeping), prints "ready" once the command runs inside and waits to
// be killed.
func holdSandbox(ws string) {
	b, err := sandbox.Detect()
	if err != nil {
		os.Exit(3)
	}
	s, err := policy.Default().SandboxSpec(ws, os.Getenv("LITE_SANDBOX_TEST_HOME"), "")
	if err != nil {
		os.Exit(3)
	}
	up := filepath.Join(ws, ".holder-up")
	p, err := sandbox.Prepare(b, s, []string{"/bin/sh", "-c", `: > "$0" && exec sleep 60`, up})
	if err != nil {
		os.Exit(3)
	}
	cmd := exec.Command(p.Path)
	cmd.Args = p.Args
	if err := cmd.Start(); err != nil {
		os.Exit(3)
	}
	// The sandbox is up when its command has written the marker (the
	// marker goes again: the test compares git status).
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(up); err == nil {
			break
		}
		if time.Now().After(deadline) {
			os.Exit(4)
		}
	}
	os.Remove(up)
	os.Stdout.WriteString("ready\n")
	cmd.Wait()
	os.Exit(0)
}

// TestPlaceholdersAfterKill: after SIGKILL of the process that held a
// sandbox, the next sandbox of the workspace removes the placeholders it
// left, never what the user put there since, and then its own; the
// workspace's lock file goes with its last user.
func TestPlaceholdersAfterKill(t *testing.T) {
	t.Parallel()
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
	// Placeholders in .git only; the workspace's missing protected paths
	// are guarded, with no name on the host (#31).
	for _, p := range []string{".git/commondir", ".git/config.worktree"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err != nil {
			t.Fatalf("placeholder %s missing while the sandbox runs: %v", p, err)
		}
	}
	for _, p := range []string{".envrc", ".vscode", ".npmrc", ".mcp.json"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Fatalf("%s exists on the host while the sandbox runs", p)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	waitUnlocked(t, ws) // bwrap dies with its parent, and lets the lock go

	// The user puts their own file where a placeholder was; something
	// stands at a guarded path the dead guard no longer watches.
	os.Remove(filepath.Join(ws, ".git", "config.worktree"))
	os.WriteFile(filepath.Join(ws, ".git", "config.worktree"), nil, 0o644) // empty, but a new file
	os.WriteFile(filepath.Join(ws, ".envrc"), []byte("left\n"), 0o644)

	r, moved := runConfinedQ(t, b, specFor(t, ws, home, nil), runOpts{}, "true")
	if r.code != 0 {
		t.Fatalf("run: %v", r)
	}
	for _, p := range []string{".git/commondir", ".envrc"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); err == nil {
			t.Errorf("%s left behind", p)
		}
	}
	checkQuarantined(t, moved, filepath.Join(ws, ".envrc"))
	if _, err := os.Lstat(filepath.Join(ws, ".git", "config.worktree")); err != nil {
		t.Error("the user's .git/config.worktree was removed")
	}
	if st := gitHost(t, ws, "status", "--porcelain"); st != "" {
		t.Errorf("host git status: %q", st)
	}
	ents, _ := os.ReadDir(lockDir())
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".placeholders") || strings.HasSuffix(e.Name(), ".guarded") {
			data, _ := os.ReadFile(filepath.Join(lockDir(), e.Name()))
			if strings.Contains(string(data), ws) {
				t.Errorf("record %s left: %s", e.Name(), data)
			}
		}
	}
}

// lockDir is the user's private directory of workspace lock files (as
// sandbox's privateDir has it).
func lockDir() string {
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		return filepath.Join(os.TempDir(), "lite-sandbox-locks-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "lite-sandbox-locks")
}

// waitUnlocked waits until no process holds the lock of workspace ws (a
// killed holder's bwrap exits soon after it, not at once), by taking and
// dropping an exclusive lock as the next sandbox would; it fails the test
// after a deadline rather than hang.
func waitUnlocked(t *testing.T, ws string) {
	t.Helper()
	sum := sha256.Sum256([]byte(ws))
	path := filepath.Join(lockDir(), hex.EncodeToString(sum[:12])+".lock")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		f, err := os.Open(path)
		if os.IsNotExist(err) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		free := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
		f.Close() // drops the lock, if taken
		if free {
			return
		}
	}
	t.Fatalf("the lock of %s is still held 10 s after its holder was killed", ws)
}
