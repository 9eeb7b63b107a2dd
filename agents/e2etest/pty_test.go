// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyHelperEnv makes the test binary act as an interactive program: it
// reports whether it has a terminal and its size, reports size changes,
// echoes lines, and exits with the status it is told.
const ptyHelperEnv = "LITE_SANDBOX_PTY_HELPER"

func ptyHelper() int {
	size := func() string {
		ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
		if err != nil {
			return "error"
		}
		return fmt.Sprintf("%d %d", ws.Row, ws.Col)
	}
	_, err := unix.IoctlGetTermios(0, unix.TCGETS)
	fmt.Printf("tty=%v\n", err == nil)
	fmt.Printf("size=%s\n", size())
	winch := make(chan os.Signal, 4)
	signal.Notify(winch, unix.SIGWINCH)
	go func() {
		for range winch {
			fmt.Printf("winch=%s\n", size())
		}
	}()
	fmt.Println("ready")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if n, ok := strings.CutPrefix(l, "exit "); ok {
			code, _ := strconv.Atoi(n)
			return code
		}
		fmt.Printf("got=%s\n", l)
	}
	return 99
}

// screen collects what the outer terminal shows.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		ok := strings.Contains(s.buf.String(), want)
		s.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("the terminal never showed %q; it shows:\n%q", want, s.buf.String())
}

// ptyRun is a launch under way on a terminal of its own.
type ptyRun struct {
	master, tty *os.File
	cmd         *exec.Cmd
	done        chan error
	scr         *screen
	before      *unix.Termios
}

// startPTY runs an interactive program (this test binary as ptyHelper)
// under `lite-sandbox launch exec` on a pty pair standing in for the
// user's terminal, of size 30x100, and waits until it is ready.
func startPTY(t *testing.T) *ptyRun {
	t.Helper()
	needBwrap(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	run := t.TempDir()
	cmd := exec.Command(binary, "launch", "--sandbox", "on", "exec", "--", self)
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir(), "XDG_RUNTIME_DIR=" + run,
		"LITE_SANDBOX_CONFIG=", "XDG_CONFIG_HOME=" + run, ptyHelperEnv + "=1"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// The launcher's controlling terminal is tty, as in a user's shell,
	// so that a resize signals it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	r := &ptyRun{master: master, tty: tty, cmd: cmd, done: make(chan error, 1), scr: &screen{}, before: before}
	go func() { bufio.NewReader(master).WriteTo(r.scr) }()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	r.scr.waitFor(t, "ready")
	return r
}

// finish waits for launch to end with status want, and checks that the
// terminal's settings are exactly what they were before.
func (r *ptyRun) finish(t *testing.T, want int) {
	t.Helper()
	select {
	case err := <-r.done:
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != want {
			t.Fatalf("launch ended with %v, want exit status %d", err, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("launch did not exit")
	}
	after, err := unix.IoctlGetTermios(int(r.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.before, after) {
		t.Errorf("terminal settings not restored:\nbefore %+v\nafter  %+v", r.before, after)
	}
}

// TestPTY: the launcher puts the user's terminal in raw mode, gives the
// program a pty with the terminal's size, follows a resize, passes keys
// and the exit status through, and restores the terminal exactly.
func TestPTY(t *testing.T) {
	r := startPTY(t)
	r.scr.waitFor(t, "tty=true")
	r.scr.waitFor(t, "size=30 100")
	raw, err := unix.IoctlGetTermios(int(r.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) != 0 || raw.Iflag&unix.ICRNL != 0 || raw.Oflag&unix.OPOST != 0 {
		t.Errorf("the user's terminal is not in raw mode while the program runs: lflag %#x iflag %#x oflag %#x", raw.Lflag, raw.Iflag, raw.Oflag)
	}

	if err := pty.Setsize(r.tty, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	r.scr.waitFor(t, "winch=40 120")

	// Keys go through as typed: the program's own pty turns \r into \n.
	r.master.Write([]byte("hello\r"))
	r.scr.waitFor(t, "got=hello")
	r.master.Write([]byte("exit 7\r"))
	r.finish(t, 7)
}

// TestPTYSignal: SIGTERM sent to the launcher reaches the program (which
// dies of it: 128+15), and the terminal is restored on that path too.
func TestPTYSignal(t *testing.T) {
	r := startPTY(t)
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r.finish(t, 128+int(syscall.SIGTERM))
}
