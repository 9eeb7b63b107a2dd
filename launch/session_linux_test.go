// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// TestSessionDir checks the layout of a session directory and what the
// shim gets from Attach.
func TestSessionDir(t *testing.T) {
	f := newFixture(t)
	s := f.open(t)
	fi, err := os.Lstat(s.Dir)
	if err != nil || fi.Mode().Perm() != 0o700 || filepath.Dir(s.Dir) != f.root {
		t.Fatalf("session dir %s: %v %v", s.Dir, fi.Mode(), err)
	}
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if l, err := os.Readlink(filepath.Join(s.Dir, "bin", "bash")); err != nil || l != exe {
		t.Errorf("bin/bash -> %q (%v), want %q", l, err, exe)
	}
	if b, _ := os.ReadFile(filepath.Join(s.Dir, "pid")); !strings.HasPrefix(string(b), strconv.Itoa(os.Getpid())+" ") {
		t.Errorf("pid file %q", b)
	}
	a, err := contract.Attach(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Workspace string }
	if err := a.DecodeMeta(&meta); err != nil || meta.Workspace != f.ws {
		t.Errorf("meta %+v, %v", meta, err)
	}
	if a.Socket != s.Socket || !strings.Contains(string(a.PolicyTOML), "[sandbox]") {
		t.Errorf("attach: socket %q, policy %d bytes", a.Socket, len(a.PolicyTOML))
	}
	if err := worker.Ping(context.Background(), a.Socket); err != nil {
		t.Error(err)
	}

	// A directory others may enter, or a symlink to the real one, is
	// not trusted.
	os.Chmod(s.Dir, 0o755)
	if _, err := contract.Attach(s.Dir); !errors.Is(err, contract.ErrInsecure) {
		t.Errorf("attach 0755: %v, want contract.ErrInsecure", err)
	}
	os.Chmod(s.Dir, 0o700)
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(s.Dir, link)
	if _, err := contract.Attach(link); !errors.Is(err, contract.ErrInsecure) {
		t.Errorf("attach symlink: %v, want contract.ErrInsecure", err)
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := os.Stat(s.Dir); !os.IsNotExist(err) {
		t.Errorf("session dir left after Close: %v", err)
	}
}

// TestTmpPersists: /tmp belongs to the session, not to one command.
func TestTmpPersists(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	if _, st := f.run(t, s, "echo kept > /tmp/x"); st != 0 {
		t.Fatalf("write: status %d", st)
	}
	if out, st := f.run(t, s, "cat /tmp/x"); st != 0 || out != "kept\n" {
		t.Errorf("second command reads %q (status %d), want kept", out, st)
	}
	s2 := f.open(t)
	if out, st := f.run(t, s2, "ls -A /tmp; test ! -e /tmp/x"); st != 0 {
		t.Errorf("a new session sees the other session's /tmp: %q", out)
	}
}

// TestBackgroundLivesWithSession: jobs a command leaves behind (plain
// `&`, nohup, setsid) keep running for the next commands, and end with
// the session.
func TestBackgroundLivesWithSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	m := randomMarker()
	_, st := f.run(t, s, fmt.Sprintf(`
		sleep %[1]s >/dev/null 2>&1 & echo $! > bg.pid
		nohup sleep %[1]s >/dev/null 2>&1 & echo $! > nohup.pid
		setsid sleep %[1]s >/dev/null 2>&1 & echo $! > setsid.pid`, m))
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	time.Sleep(50 * time.Millisecond)
	if out, st := f.run(t, s, `for f in bg nohup setsid; do kill -0 "$(cat $f.pid)" && test -d /proc/"$(cat $f.pid)" || echo "$f gone"; done`); st != 0 || out != "" {
		t.Errorf("background processes in the next command: %q (status %d)", out, st)
	}
	waitProcs(t, 3, "sleep", m)
	t0 := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Close waits for the PID namespace to be torn down.
	if p := procsWith("sleep", m); len(p) != 0 {
		t.Errorf("processes %v of the session still run after Close", p)
	}
	t.Logf("Close took %v", time.Since(t0))
}

// TestIsolation: a command sees neither the session directory nor any
// descriptor beyond its stdio, and cannot look into the worker.
func TestIsolation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	out, st := f.run(t, s, "exec ls /proc/self/fd")
	if st != 0 || strings.Join(strings.Fields(out), " ") != "0 1 2 3" {
		t.Errorf("descriptors of a command: %q, want 0 1 2 3 (3 is ls's own)", out)
	}
	if _, st := f.run(t, s, "test -e "+s.Dir+" || test -e "+filepath.Dir(s.Dir)); st != 1 {
		t.Errorf("the session directory is visible inside (status %d)", st)
	}
	// Even a workspace that contains the runtime root does not expose
	// the sockets.
	o := f.options(t)
	o.RuntimeRoot = filepath.Join(f.ws, "run")
	s2, err := launch.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if out, st := f.run(t, s2, "ls -A "+o.RuntimeRoot+"; test ! -e "+s2.Socket+" && test ! -e "+s.Socket); st != 0 || out != "" {
		t.Errorf("sockets visible through the workspace: %q (status %d)", out, st)
	}

	// PID 2 is the worker (1 is bwrap's init). It is not dumpable, so a
	// command running as the same user can neither reach its descriptors
	// nor read its environment.
	out, st = f.run(t, s, `tr '\0' ' ' < /proc/2/cmdline; echo
		readlink /proc/2/fd/3 && echo READABLE; cat /proc/2/environ && echo READABLE; true`)
	if st != 0 || !strings.Contains(out, "lite-sandbox-test-worker") || strings.Contains(out, "READABLE") {
		t.Errorf("worker as seen from a command: %q", out)
	}
}

// TestStatusAndStdio: exit by signal is 128+N; the command writes to the
// caller's own file and reads the caller's own pipe.
func TestStatusAndStdio(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	for script, want := range map[string]int{"exit 7": 7, "kill -TERM $$": 143, "kill -KILL $$": 137, "kill -INT $$": 130} {
		if _, st := f.run(t, s, script); st != want {
			t.Errorf("%q: status %d, want %d", script, st, want)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Blocking, as a shell's pipe: Go makes os.Pipe's non-blocking (its
	// poller), and a command reading before the writer wrote got EAGAIN
	// (seen under load, #29). Fd switches it to blocking mode.
	r.Fd()
	go func() {
		w.WriteString("line one\nline two\n")
		w.Close()
	}()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	st, err := worker.Run(context.Background(), s.Socket, f.request(`tac; echo to-stderr >&2`), r, out, out)
	r.Close()
	if err != nil || st != 0 {
		t.Fatalf("status %d, %v", st, err)
	}
	if b, _ := os.ReadFile(out.Name()); string(b) != "line two\nline one\nto-stderr\n" {
		t.Errorf("file written by the command: %q", b)
	}
}

// TestSIGINTToClient: SIGINT to the shim side (a separate client process,
// as the shim will be) stops the command.
func TestSIGINTToClient(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	argv, _ := json.Marshal([]string{"/bin/bash", "-c", "echo started > started; sleep 100; echo not reached"})
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envHelper+"=client", "HELPER_SOCKET="+s.Socket, "HELPER_ARGV="+string(argv),
		"HELPER_WORKSPACE="+f.ws, "HELPER_HOME="+f.home)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitExists(t, filepath.Join(f.ws, "started"))
	t0 := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("client exit status %d, want 130", code)
		}
		t.Logf("stopped %v after SIGINT", time.Since(t0))
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatal("the command did not stop on SIGINT")
	}
}

// TestOwnerKilled: when the session's owner is SIGKILLed, nothing of its
// sandbox survives, and the next Open removes its directory.
func TestOwnerKilled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := randomMarker()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envHelper+"=owner", "HELPER_ROOT="+f.root, "HELPER_BWRAP="+f.b.Path,
		"HELPER_WORKSPACE="+f.ws, "HELPER_HOME="+f.home,
		"HELPER_SCRIPT="+fmt.Sprintf("setsid sleep %[1]s >/dev/null 2>&1 & nohup sleep %[1]s >/dev/null 2>&1 & touch ready; sleep %[1]s", m))
	cmd.Stderr = os.Stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	dir := strings.TrimPrefix(waitLine(t, bufio.NewScanner(stdout), "ready "), "ready ")
	waitProcs(t, 3, "sleep", m)
	t0 := time.Now()
	cmd.Process.Kill()
	cmd.Wait()
	for len(procsWith("sleep", m)) > 0 {
		if time.Since(t0) > hangGuard {
			t.Fatalf("sandboxed processes %v survive their session's owner", procsWith("sleep", m))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("sandbox gone %v after SIGKILL of its owner", time.Since(t0))

	if !exists(dir) {
		t.Fatalf("expected the killed owner's directory %s to remain until the next Open", dir)
	}
	f.open(t)
	if exists(dir) {
		t.Errorf("stale session directory %s not removed by Open", dir)
	}
}

// TestConcurrentClients: 50 commands at once, each with its own output
// and status.
func TestConcurrentClients(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.open(t)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := os.CreateTemp(t.TempDir(), "out")
			if err != nil {
				errs <- err
				return
			}
			defer out.Close()
			req := f.request(`sleep 0.0$(($1 % 10)); echo "index $1"; exit $(($1 % 7))`)
			req.Argv = append(req.Argv, "bash", strconv.Itoa(i))
			st, err := worker.Run(context.Background(), s.Socket, req, nil, out, nil)
			if err != nil {
				errs <- fmt.Errorf("command %d: %w", i, err)
				return
			}
			b, _ := os.ReadFile(out.Name())
			if st != i%7 || string(b) != fmt.Sprintf("index %d\n", i) {
				errs <- fmt.Errorf("command %d: status %d, output %q", i, st, b)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestWorkerKilled: a worker killed from the host mid-command gives the
// waiting client ErrWorkerDied within a second, and the session restarts
// it (with a fresh sandbox).
func TestWorkerKilled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	o := f.options(t)
	s, err := launch.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := make(chan error, 1)
	go func() {
		_, err := worker.Run(context.Background(), s.Socket, f.request("touch started; sleep 100"), nil, nil, nil)
		res <- err
	}()
	waitExists(t, filepath.Join(f.ws, "started"))
	t0 := time.Now()
	syscall.Kill(workerPID(t, o), syscall.SIGKILL)
	select {
	case err := <-res:
		if !errors.Is(err, worker.ErrWorkerDied) {
			t.Errorf("Run: %v, want ErrWorkerDied", err)
		}
		t.Logf("client got %q after %v", err, time.Since(t0))
	case <-time.After(hangGuard): // scripts/bench owns timings
		t.Fatal("the client hangs after the worker died")
	}
	// The next command waits in the socket's backlog for the restarted
	// worker.
	if out, st := f.run(t, s, "echo back"); st != 0 || out != "back\n" {
		t.Errorf("after restart: %q, status %d", out, st)
	}
	if n := s.Restarts(); n != 1 {
		t.Errorf("%d restarts, want 1", n)
	}
	if b, _ := os.ReadFile(filepath.Join(s.Dir, contract.WorkerLog)); !strings.Contains(string(b), "restarting the worker") {
		t.Errorf("restart not logged: %q", b)
	}
}

// TestStartFailure: a worker that cannot start makes Open fail with its
// log, and leaves nothing behind.
func TestStartFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	o := f.options(t)
	o.WorkerEnv = []string{"PATH=/usr/bin:/bin", "LITE_SANDBOX_TEST_WORKER=fail"}
	t0 := time.Now()
	_, err := launch.Open(context.Background(), o)
	var se *launch.StartError
	if !errors.As(err, &se) || !strings.Contains(se.Log, "deliberately failing") {
		t.Fatalf("Open: %v, want a *StartError with the worker's log", err)
	}
	// Open returning at all is the claim (the worker gives up within its
	// start timeout); a hang is go test's timeout, and scripts/bench owns
	// timings.
	t.Logf("failure reported after %v", time.Since(t0))
	if ents, _ := os.ReadDir(f.root); len(ents) != 0 {
		t.Errorf("left behind in the runtime root: %v", ents)
	}
	// A program that is not visible in the sandbox at all.
	o = f.options(t)
	o.Exe = "/nonexistent/lite-sandbox"
	if _, err := launch.Open(context.Background(), o); err == nil {
		t.Error("Open with a missing executable succeeded")
	}
}

// TestExec: the agent runs outside the sandbox with its shell pointed at
// the session's shim, and its status comes back.
func TestExec(t *testing.T) {
	f := newFixture(t)
	s := f.open(t)
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	st, err := launch.Exec(context.Background(), s, []string{"/bin/sh", "-c", `echo "$SHELL|$LITE_SANDBOX_SHIM|$LITE_SANDBOX_SESSION"; exit 5`}, nil, out, os.Stderr)
	if err != nil || st != 5 {
		t.Fatalf("status %d, %v", st, err)
	}
	shim := filepath.Join(s.Dir, "bin", "bash")
	if b, _ := os.ReadFile(out.Name()); string(b) != shim+"|"+shim+"|"+s.Dir+"\n" {
		t.Errorf("agent env: %q", b)
	}
	if st, _ := launch.Exec(context.Background(), s, []string{"/bin/sh", "-c", "kill -HUP $$"}, nil, nil, nil); st != 129 {
		t.Errorf("death by SIGHUP: status %d, want 129", st)
	}
	if st, err := launch.Exec(context.Background(), s, []string{"no-such-agent-xyz"}, nil, nil, nil); err == nil || st != 127 {
		t.Errorf("missing program: %d, %v", st, err)
	}

	// SIGTERM to the launcher reaches the agent.
	ready := filepath.Join(t.TempDir(), "ready")
	res := make(chan int, 1)
	go func() {
		st, _ := launch.Exec(context.Background(), s, []string{"/bin/sh", "-c", `trap "exit 42" TERM; touch ` + ready + `; while :; do sleep 0.01; done`}, nil, nil, nil)
		res <- st
	}()
	waitExists(t, ready)
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case st := <-res:
		if st != 42 {
			t.Errorf("after SIGTERM: status %d, want 42 from the agent's trap", st)
		}
	case <-time.After(hangGuard):
		t.Fatal("SIGTERM not forwarded to the agent")
	}
}

// BenchmarkSessionTrue is one round trip: connect, send the request and
// descriptors, fork and exec /bin/true in the sandbox, get the status.
func BenchmarkSessionTrue(b *testing.B) {
	f := &fixture{b: backend(b)}
	base, err := os.MkdirTemp("/var/tmp", "lite-sandbox-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(base)
	f.ws, f.home, f.root = filepath.Join(base, "ws"), filepath.Join(base, "home"), filepath.Join(base, "run")
	os.Mkdir(f.ws, 0o755)
	os.Mkdir(f.home, 0o755)
	o, err := options(f.ws, f.home, f.root, f.b)
	if err != nil {
		b.Fatal(err)
	}
	s, err := launch.Open(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	req := worker.Request{Argv: []string{"/bin/true"}, Env: cmdEnv(f.home), Dir: f.ws}
	b.ResetTimer()
	for b.Loop() {
		if st, err := worker.Run(context.Background(), s.Socket, req, nil, nil, nil); err != nil || st != 0 {
			b.Fatal(st, err)
		}
	}
}

// BenchmarkDirectTrue is the baseline: /bin/true started directly.
func BenchmarkDirectTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
