// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns a new pseudo-terminal pair, or skips the test.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(m.Fd())
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// TestExecForeground runs Exec on a terminal, as `launch exec` runs an
// interactive agent: the agent gets its own process group in the
// foreground, so Ctrl-C reaches it from the terminal (once, and never
// the launcher or the sandbox), and the launcher takes the terminal back
// afterwards.
func TestExecForeground(t *testing.T) {
	t.Parallel()
	master, slave := openPTY(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envHelper+"=exec", "HELPER_DIR="+t.TempDir(), "HELPER_SCRIPT="+`
		pg=$(ps -o pgid= -p $$); tpg=$(ps -o tpgid= -p $$); ppg=$(ps -o pgid= -p $PPID)
		echo "fg=$((pg == tpg)) own=$((pg != ppg))"
		echo ready
		sleep 5
		echo not reached`)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// A session of its own with the pty as its controlling terminal,
	// where it starts in the foreground, like a login shell's job.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	slave.Close()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(master)
		for sc.Scan() {
			lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(hangGuard):
			t.Fatal("no output from the agent")
			return ""
		}
	}
	if l := next(); l != "fg=1 own=1" {
		t.Fatalf("agent: %q, want it in its own, foreground process group", l)
	}
	if l := next(); l != "ready" {
		t.Fatalf("agent: %q", l)
	}
	t0 := time.Now()
	master.Write([]byte{3}) // Ctrl-C
	// The terminal echoes "^C" (without a newline).
	l := strings.TrimPrefix(next(), "^C")
	if l == "" {
		l = next()
	}
	if l != "restored=true" {
		t.Errorf("launcher after the agent: %q, want restored=true", l)
	}
	cmd.Wait()
	if st := cmd.ProcessState.ExitCode(); st != 130 {
		t.Errorf("status %d, want 130", st)
	}
	t.Logf("Ctrl-C to exit: %v", time.Since(t0))
}
