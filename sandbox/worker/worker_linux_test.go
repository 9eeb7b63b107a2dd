// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker_test

// These tests run the worker as a plain subprocess, without a sandbox:
// they pin the protocol, process and descriptor handling. The sandboxed
// behaviour (PID namespace, /tmp, teardown) is tested in package launch.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

func TestMain(m *testing.M) {
	if os.Getenv("LITE_SANDBOX_WORKER_TEST") == "1" {
		err := worker.ServeFD(3)
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// startWorker starts the test binary as a worker on a fresh socket, with
// extraEnv in its environment. It also hands the worker an extra,
// inheritable descriptor 4, which must never reach a command.
func startWorker(t *testing.T, extraEnv ...string) (sock string, cmd *exec.Cmd) {
	t.Helper()
	sock = filepath.Join(t.TempDir(), "w.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	lf, err := l.File()
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	leak, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(os.Args[0], "worker")
	cmd.Env = append(append(os.Environ(), "LITE_SANDBOX_WORKER_TEST=1"), extraEnv...)
	cmd.Stderr = os.Stderr
	cmd.ExtraFiles = []*os.File{lf, leak}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lf.Close()
	leak.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := worker.Ping(ctx, sock); err != nil {
		t.Fatalf("ping: %v", err)
	}
	return sock, cmd
}

// env is the environment of test commands.
var env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"}

// run runs a shell script in the worker with stdout and stderr going to
// files, and returns them.
func run(t *testing.T, sock, script string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	errf, err := os.Create(filepath.Join(dir, "err"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	argv := append([]string{"/bin/sh", "-c", script}, args...)
	status, err = worker.Run(context.Background(), sock, worker.Request{Argv: argv, Env: env, Dir: dir}, nil, out, errf)
	if err != nil {
		t.Fatalf("run %q: %v", script, err)
	}
	o, _ := os.ReadFile(out.Name())
	e, _ := os.ReadFile(errf.Name())
	return string(o), string(e), status
}

func TestStatus(t *testing.T) {
	sock, _ := startWorker(t)
	for _, tc := range []struct {
		script string
		want   int
	}{
		{"true", 0},
		{"exit 3", 3},
		{"exit 255", 255},
		{"kill -TERM $$", 128 + 15},
		{"kill -KILL $$", 128 + 9},
		{"kill -SEGV $$", 128 + 11},
	} {
		if _, _, got := run(t, sock, tc.script); got != tc.want {
			t.Errorf("%q: status %d, want %d", tc.script, got, tc.want)
		}
	}
}

// TestStdio checks that the command gets the caller's descriptors
// themselves: a pipe as stdin, files as stdout and stderr.
func TestStdio(t *testing.T) {
	sock, _ := startWorker(t)
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Blocking, as a shell's pipe: Go makes os.Pipe's non-blocking (its
	// poller), and a command reading before the writer wrote got EAGAIN
	// (seen under load, #29). Fd switches it to blocking mode.
	r.Fd()
	go func() {
		fmt.Fprintln(w, "hello from the pipe")
		w.Close()
	}()
	out, _ := os.Create(filepath.Join(dir, "out"))
	errf, _ := os.Create(filepath.Join(dir, "err"))
	st, err := worker.Run(context.Background(), sock, worker.Request{
		Argv: []string{"/bin/sh", "-c", `read line; echo "got: $line"; echo oops >&2; readlink /proc/self/fd/1`},
		Env:  env,
	}, r, out, errf)
	r.Close()
	if err != nil || st != 0 {
		t.Fatalf("status %d, %v", st, err)
	}
	o, _ := os.ReadFile(out.Name())
	e, _ := os.ReadFile(errf.Name())
	if want := "got: hello from the pipe\n" + out.Name() + "\n"; string(o) != want {
		t.Errorf("stdout %q, want %q", o, want)
	}
	if string(e) != "oops\n" {
		t.Errorf("stderr %q", e)
	}
}

func TestEnvDirAndPath(t *testing.T) {
	sock, _ := startWorker(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "hello"), []byte("#!/bin/sh\necho \"hello $WHO in $PWD\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, _ := os.Create(filepath.Join(dir, "out"))
	defer out.Close()
	// "hello" is found in the request's PATH, not the worker's.
	st, err := worker.Run(context.Background(), sock, worker.Request{
		Argv: []string{"hello"},
		Env:  []string{"PATH=" + bin + ":/usr/bin:/bin", "WHO=me"},
		Dir:  dir,
	}, nil, out, nil)
	if err != nil || st != 0 {
		t.Fatalf("status %d, %v", st, err)
	}
	if o, _ := os.ReadFile(out.Name()); string(o) != "hello me in "+dir+"\n" {
		t.Errorf("stdout %q", o)
	}
}

func TestStartErrors(t *testing.T) {
	sock, _ := startWorker(t)
	dir := t.TempDir()
	noexec := filepath.Join(dir, "noexec")
	os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644)
	for _, tc := range []struct {
		name string
		req  worker.Request
		want int
	}{
		{"not found", worker.Request{Argv: []string{"no-such-command-xyz"}, Env: env}, 127},
		{"missing path", worker.Request{Argv: []string{dir + "/missing"}, Env: env}, 127},
		{"not executable", worker.Request{Argv: []string{noexec}, Env: env}, 126},
		{"bad dir", worker.Request{Argv: []string{"/bin/true"}, Env: env, Dir: dir + "/nope"}, 126},
	} {
		st, err := worker.Run(context.Background(), sock, tc.req, nil, nil, nil)
		var se *worker.StartError
		if !errors.As(err, &se) || st != tc.want || se.Status != tc.want {
			t.Errorf("%s: status %d, error %v; want a *StartError with %d", tc.name, st, err, tc.want)
		}
	}
}

// TestNoLeakedDescriptors checks that a command gets exactly its three
// descriptors: not the listener, not the connection, not descriptor 4
// that the worker inherited.
func TestNoLeakedDescriptors(t *testing.T) {
	sock, _ := startWorker(t)
	// ls opens /proc/self/fd itself as descriptor 3.
	out, _, st := run(t, sock, "exec ls /proc/self/fd")
	if st != 0 || strings.Fields(out) == nil || strings.Join(strings.Fields(out), " ") != "0 1 2 3" {
		t.Errorf("descriptors of a command: %q (status %d), want 0 1 2 3", out, st)
	}
}

// TestExtraDescriptors: a request's extra files are the command's 3, 4,
// ... and nothing else leaks; more than MaxExtra are refused.
func TestExtraDescriptors(t *testing.T) {
	sock, _ := startWorker(t)
	dir := t.TempDir()
	a, _ := os.Create(filepath.Join(dir, "a"))
	b, _ := os.Create(filepath.Join(dir, "b"))
	defer a.Close()
	defer b.Close()
	out, _ := os.Create(filepath.Join(dir, "out"))
	st, err := worker.Run(context.Background(), sock, worker.Request{
		Argv:  []string{"/bin/sh", "-c", "echo three >&3; echo four >&4; exec ls /proc/self/fd"},
		Env:   env,
		Extra: []*os.File{a, b},
	}, nil, out, nil)
	if err != nil || st != 0 {
		t.Fatalf("status %d, %v", st, err)
	}
	ga, _ := os.ReadFile(a.Name())
	gb, _ := os.ReadFile(b.Name())
	o, _ := os.ReadFile(out.Name())
	if string(ga) != "three\n" || string(gb) != "four\n" {
		t.Errorf("extra files got %q and %q", ga, gb)
	}
	// ls opens /proc/self/fd itself as descriptor 5.
	if got := strings.Join(strings.Fields(string(o)), " "); got != "0 1 2 3 4 5" {
		t.Errorf("descriptors of the command: %q, want 0 1 2 3 4 5", got)
	}
	if _, err := worker.Run(context.Background(), sock, worker.Request{Argv: []string{"true"}, Env: env,
		Extra: make([]*os.File, worker.MaxExtra+1)}, nil, nil, nil); err == nil {
		t.Error("too many extra descriptors accepted")
	}
}

// waitFile waits until a command wrote a non-empty file.
func waitFile(t *testing.T, name string) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(name); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
	}
	t.Fatalf("%s was not written", name)
	return ""
}

// running reports whether pid runs (exists and is no zombie).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if !running(pid) {
			return
		}
	}
	t.Errorf("process %d still runs after %v", pid, within)
}

// TestSignalForwarded sends SIGINT to the calling process, as a terminal
// or an agent would to the shim: the command's whole process group gets
// it, and the status says so.
func TestSignalForwarded(t *testing.T) {
	sock, _ := startWorker(t)
	dir := t.TempDir()
	type result struct {
		st  int
		err error
	}
	res := make(chan result, 1)
	go func() {
		// The inner sleep is in the command's group but not its main
		// process: it must die too. (A background job would not: a
		// non-interactive shell starts those with SIGINT ignored.)
		st, err := worker.Run(context.Background(), sock, worker.Request{
			Argv: []string{"/bin/sh", "-c", `echo $$ > started; sh -c 'echo $$ > bg; exec sleep 100'; echo not reached`},
			Env:  env, Dir: dir,
		}, nil, nil, nil)
		res <- result{st, err}
	}()
	bg, _ := strconv.Atoi(waitFile(t, filepath.Join(dir, "bg")))
	waitFile(t, filepath.Join(dir, "started"))
	t0 := time.Now()
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case r := <-res:
		if r.err != nil || r.st != 130 {
			t.Errorf("status %d, %v; want 130", r.st, r.err)
		}
		t.Logf("SIGINT to status in %v", time.Since(t0))
	case <-time.After(5 * time.Second):
		t.Fatal("the command did not stop on SIGINT")
	}
	waitGone(t, bg, 10*time.Second)
}

// TestDisconnectKillsGroup: when the client goes away (its context ends,
// or it is killed), the command's process group is killed.
func TestDisconnectKillsGroup(t *testing.T) {
	sock, _ := startWorker(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() {
		_, err := worker.Run(ctx, sock, worker.Request{
			Argv: []string{"/bin/sh", "-c", `trap "" INT TERM; sleep 100 & echo $! > bg; sleep 100`},
			Env:  env, Dir: dir,
		}, nil, nil, nil)
		res <- err
	}()
	bg, _ := strconv.Atoi(waitFile(t, filepath.Join(dir, "bg")))
	cancel()
	if err := <-res; !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want context.Canceled", err)
	}
	waitGone(t, bg, 10*time.Second)
}

// TestBackgroundSurvives: once the command exited normally, the jobs it
// left behind keep running (the session ends them, not the worker).
func TestBackgroundSurvives(t *testing.T) {
	sock, _ := startWorker(t)
	out, _, st := run(t, sock, `sleep 100 >/dev/null 2>&1 & echo $!; setsid sleep 100 >/dev/null 2>&1 & echo $!`)
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	time.Sleep(100 * time.Millisecond)
	for _, f := range strings.Fields(out) {
		pid, _ := strconv.Atoi(f)
		if !running(pid) {
			t.Errorf("background process %d died with its command", pid)
		}
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestConcurrent runs many commands at once: each gets its own output
// and status.
func TestConcurrent(t *testing.T) {
	sock, _ := startWorker(t)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := os.CreateTemp(t.TempDir(), "out")
			if err != nil {
				errs <- err
				return
			}
			defer f.Close()
			st, err := worker.Run(context.Background(), sock, worker.Request{
				Argv: []string{"/bin/sh", "-c", `sleep 0.0$(($1 % 10)); echo "index $1"; exit $(($1 % 7))`, "sh", strconv.Itoa(i)},
				Env:  env,
			}, nil, f, nil)
			if err != nil {
				errs <- err
				return
			}
			out, _ := os.ReadFile(f.Name())
			if st != i%7 || string(out) != fmt.Sprintf("index %d\n", i) {
				errs <- fmt.Errorf("command %d: status %d, output %q", i, st, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestWorkerDies: a worker killed mid-command gives the client an error,
// promptly, not a hang.
func TestWorkerDies(t *testing.T) {
	sock, cmd := startWorker(t)
	dir := t.TempDir()
	res := make(chan error, 1)
	go func() {
		_, err := worker.Run(context.Background(), sock, worker.Request{
			Argv: []string{"/bin/sh", "-c", `echo $$ > started; exec sleep 100`},
			Env:  env, Dir: dir,
		}, nil, nil, nil)
		res <- err
	}()
	pid, _ := strconv.Atoi(waitFile(t, filepath.Join(dir, "started")))
	// Without a sandbox nothing else kills the command.
	defer syscall.Kill(-pid, syscall.SIGKILL)
	t0 := time.Now()
	cmd.Process.Kill()
	select {
	case err := <-res:
		if !errors.Is(err, worker.ErrWorkerDied) {
			t.Errorf("Run: %v, want ErrWorkerDied", err)
		}
		t.Logf("error after %v", time.Since(t0))
	case <-time.After(5 * time.Second): // a hang guard; scripts/bench owns timings
		t.Fatal("Run hangs after the worker died")
	}
	// Nothing listens any more, once the kernel has closed the dead
	// worker's listener (a connection accepted in between dies with it).
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err = worker.Run(context.Background(), sock, worker.Request{Argv: []string{"true"}}, nil, nil, nil); !errors.Is(err, worker.ErrWorkerDied) {
			break
		}
	}
	if !errors.Is(err, worker.ErrNoWorker) {
		t.Errorf("Run on a dead worker: %v, want ErrNoWorker", err)
	}
}

func TestNoWorker(t *testing.T) {
	_, err := worker.Run(context.Background(), filepath.Join(t.TempDir(), "none.sock"), worker.Request{Argv: []string{"true"}}, nil, nil, nil)
	if !errors.Is(err, worker.ErrNoWorker) {
		t.Errorf("got %v, want ErrNoWorker", err)
	}
}

// TestLargeRequest sends a request larger than a socket buffer, so the
// client writes it in parts after the descriptors.
func TestLargeRequest(t *testing.T) {
	sock, _ := startWorker(t)
	big := strings.Repeat("x", 100<<10)
	e := append([]string{}, env...)
	for i := range 15 {
		e = append(e, fmt.Sprintf("BIG%d=%s", i, big))
	}
	f, _ := os.Create(filepath.Join(t.TempDir(), "out"))
	defer f.Close()
	st, err := worker.Run(context.Background(), sock, worker.Request{Argv: []string{"/bin/sh", "-c", `echo ${#BIG0} ${#BIG14}`}, Env: e}, nil, f, nil)
	if err != nil || st != 0 {
		t.Fatalf("status %d, %v", st, err)
	}
	if out, _ := os.ReadFile(f.Name()); string(out) != "102400 102400\n" {
		t.Errorf("output %q", out)
	}
}
