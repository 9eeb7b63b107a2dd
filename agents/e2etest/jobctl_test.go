// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

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

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// shellRun is an interactive bash with job control on a pty of its own,
// standing in for the user's shell in their terminal.
type shellRun struct {
	master, tty *os.File
	cmd         *exec.Cmd
	scr         *screen
	dir         string
}

// startShell starts the shell with extra variables in its environment
// (they replace the defaults of the same name).
func startShell(t *testing.T, extra ...string) *shellRun {
	t.Helper()
	needBwrap(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	run := t.TempDir()
	dir := t.TempDir()
	cmd := exec.Command(bash, "--norc", "--noprofile", "-i")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir(), "XDG_RUNTIME_DIR=" + run,
		"LITE_SANDBOX_CONFIG=", "XDG_CONFIG_HOME=" + run, "TERM=dumb", "INPUTRC=/dev/null", "PS1=$ ",
		ptyHelperEnv + "=1"}
	cmd.Env = append(cmd.Env, extra...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	s := &shellRun{master: master, tty: tty, cmd: cmd, scr: &screen{}, dir: dir}
	go func() { bufio.NewReader(master).WriteTo(s.scr) }()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	s.scr.waitFor(t, "$ ")
	return s
}

func (s *shellRun) typeLine(l string) { s.master.Write([]byte(l + "\r")) }

// count is how often the terminal showed want so far.
func (s *screen) count(want string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.buf.String(), want)
}

// waitForCount waits until the terminal showed want n times.
func (s *screen) waitForCount(t *testing.T, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if s.count(want) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("the terminal never showed %q %d times; it shows:\n%s", want, n, s.buf.String())
}

// launcherPID is the shell's one child: the job it runs.
func (s *shellRun) launcherPID(t *testing.T) int {
	t.Helper()
	pid := s.cmd.Process.Pid
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		t.Fatalf("the shell has children %v, want one", f)
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// termios reads the user's terminal's settings.
func (s *shellRun) termios(t *testing.T) *unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(s.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio
}

func isRaw(tio *unix.Termios) bool {
	return tio.Lflag&(unix.ICANON|unix.ISIG) == 0 && tio.Oflag&unix.OPOST == 0
}

// TestJobControl: under a real job-control shell, Ctrl-Z under `launch
// exec -- PROGRAM` (a plain program, which does not handle the key: its
// pty's line discipline stops it) gives the shell back with the job
// Stopped and the terminal no longer raw; fg resumes it (raw again, and
// it reads input); SIGTSTP from outside stops it the same way; continued
// in the background (kill -CONT, bg) it does not take the terminal and
// stops again (SIGTTIN), for bg as for kill -CONT; the exit status passes through and the
// terminal's settings after the job equal those before.
func TestJobControl(t *testing.T) {
	s := startShell(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	before := filepath.Join(s.dir, "before")
	s.typeLine("stty -g >" + before)
	s.typeLine(binary + " launch --sandbox on exec -- " + self)
	s.scr.waitFor(t, "ready")
	if !isRaw(s.termios(t)) {
		t.Fatalf("the terminal is not raw while the program runs: %+v", s.termios(t))
	}

	// Ctrl-Z, as typed.
	s.master.Write([]byte{0x1a})
	s.scr.waitForCount(t, "Stopped", 1)
	s.typeLine("jobs")
	s.scr.waitForCount(t, "Stopped", 2)
	if isRaw(s.termios(t)) {
		t.Errorf("the terminal is still raw after the job stopped")
	}
	s.typeLine("fg")
	s.typeLine("hello")
	s.scr.waitFor(t, "got=hello")
	if !isRaw(s.termios(t)) {
		t.Errorf("the terminal is not raw again after fg")
	}

	// SIGTSTP from outside, then SIGCONT from outside while the shell
	// holds the terminal: the job goes on in the background, where it
	// must not take the terminal, so it stops again for tty input.
	n := s.scr.count("Stopped")
	if err := syscall.Kill(s.launcherPID(t), syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	s.scr.waitForCount(t, "Stopped", n+1)
	// bg, then SIGCONT from outside: each time the job goes on in the
	// background, where it must not take the terminal, so it stops
	// again for tty input.
	// (bash says "Stopped" whatever the stop signal.)
	for _, cont := range []string{"bg", "kill -CONT %1"} {
		n := s.scr.count("Stopped")
		s.typeLine(cont)
		for deadline := time.Now().Add(30 * time.Second); s.scr.count("Stopped") <= n; {
			if time.Now().After(deadline) {
				t.Fatalf("after %s the job never stopped again; the terminal shows:\n%s", cont, s.scr.buf.String())
			}
			s.typeLine("jobs")
			time.Sleep(200 * time.Millisecond)
		}
		if isRaw(s.termios(t)) {
			t.Errorf("after %s the job in the background took the terminal (raw)", cont)
		}
	}
	s.typeLine("fg")
	s.typeLine("again")
	s.scr.waitFor(t, "got=again")

	prompts := s.scr.count("$ ")
	s.typeLine("exit 7")
	s.scr.waitForCount(t, "$ ", prompts+1) // typed ahead, the next line would go to the program
	s.typeLine("echo status=$?")
	s.scr.waitFor(t, "status=7")
	after := filepath.Join(s.dir, "after")
	s.typeLine("stty -g >" + after + "; echo sa''ved")
	s.scr.waitFor(t, "saved")
	b1, err1 := os.ReadFile(before)
	b2, err2 := os.ReadFile(after)
	if err1 != nil || err2 != nil || len(b1) == 0 || string(b1) != string(b2) {
		t.Errorf("terminal settings differ after the job (%v, %v):\nbefore %s\nafter  %s", err1, err2, b1, b2)
	}
}

// size is how much the terminal has shown so far.
func (s *screen) size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Len()
}

// since is what the terminal has shown after size was mark.
func (s *screen) since(mark int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()[mark:]
}

// waitUntil waits for cond, failing the test after a minute.
func (s *screen) waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			s.mu.Lock()
			defer s.mu.Unlock()
			t.Fatalf("the terminal never showed %s; it shows:\n%q", what, s.buf.String())
		}
	}
}

// waitQuiet waits until the screen has taken no output for half a
// second (the agent has drawn what a key made it draw), at most 30 s:
// pacing, not a check.
func (s *screen) waitQuiet(t *testing.T) {
	t.Helper()
	last, since := s.size(), time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n := s.size(); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= 500*time.Millisecond {
			return
		}
	}
}
