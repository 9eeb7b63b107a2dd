// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// TestForward pins that Forward, the shim's blocking client, gives what
// Run gives: the status, the output on the caller's own descriptors, a
// request larger than a socket buffer, and the moments the worker sends
// in its 'X' frame read the same way by Run's Conn.
func TestForward(t *testing.T) {
	sock, _ := startWorker(t)
	big := strings.Repeat("x", 100<<10)
	large := append([]string{}, env...)
	for i := range 15 {
		large = append(large, fmt.Sprintf("BIG%d=%s", i, big))
	}
	for _, tc := range []struct {
		script, out string
		env         []string
		want        int
	}{
		{"echo hi", "hi\n", env, 0},
		{"exit 3", "", env, 3},
		{"kill -TERM $$", "", env, 128 + 15},
		{`echo ${#BIG0} ${#BIG14}`, "102400 102400\n", large, 0},
	} {
		f, err := os.Create(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		st, err := worker.Forward(sock, worker.Request{Argv: []string{"/bin/sh", "-c", tc.script}, Env: tc.env}, nil, f, nil)
		f.Close()
		if err != nil || st != tc.want {
			t.Errorf("%.20q: status %d, %v; want %d", tc.script, st, err, tc.want)
		}
		if out, _ := os.ReadFile(f.Name()); string(out) != tc.out {
			t.Errorf("%.20q: output %q, want %q", tc.script, out, tc.out)
		}
	}
}

// TestForwardErrors: no worker, a worker that dies mid-command, and a
// request without a program are errors, as Run's are.
func TestForwardErrors(t *testing.T) {
	if _, err := worker.Forward(filepath.Join(t.TempDir(), "none.sock"), worker.Request{Argv: []string{"true"}}, nil, nil, nil); !errors.Is(err, worker.ErrNoWorker) {
		t.Errorf("no worker: %v, want ErrNoWorker", err)
	}
	sock, cmd := startWorker(t)
	if _, err := worker.Forward(sock, worker.Request{}, nil, nil, nil); err == nil {
		t.Error("no program: no error")
	}
	dir := t.TempDir()
	res := make(chan error, 1)
	go func() {
		_, err := worker.Forward(sock, worker.Request{
			Argv: []string{"/bin/sh", "-c", `echo $$ > started; exec sleep 100`}, Env: env, Dir: dir,
		}, nil, nil, nil)
		res <- err
	}()
	pid, _ := strconv.Atoi(waitFile(t, filepath.Join(dir, "started")))
	defer syscall.Kill(-pid, syscall.SIGKILL) // without a sandbox nothing else kills it
	cmd.Process.Kill()
	select {
	case err := <-res:
		if !errors.Is(err, worker.ErrWorkerDied) {
			t.Errorf("worker died: %v, want ErrWorkerDied", err)
		}
	case <-time.After(5 * time.Second): // a hang guard
		t.Fatal("Forward hangs after the worker died")
	}
}

// TestForwardSignal sends SIGINT to the calling process, as a terminal
// or an agent does to the shim: Forward relays it to the command's
// group, and the status says so. (Not parallel: the signal goes to the
// test process.)
func TestForwardSignal(t *testing.T) {
	sock, _ := startWorker(t)
	dir := t.TempDir()
	type result struct {
		st  int
		err error
	}
	res := make(chan result, 1)
	go func() {
		st, err := worker.Forward(sock, worker.Request{
			Argv: []string{"/bin/sh", "-c", `echo $$ > started; sh -c 'echo $$ > bg; exec sleep 100'; echo not reached`},
			Env:  env, Dir: dir,
		}, nil, nil, nil)
		res <- result{st, err}
	}()
	bg, _ := strconv.Atoi(waitFile(t, filepath.Join(dir, "bg")))
	waitFile(t, filepath.Join(dir, "started"))
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case r := <-res:
		if r.err != nil || r.st != 130 {
			t.Errorf("status %d, %v; want 130", r.st, r.err)
		}
	case <-time.After(5 * time.Second): // a hang guard
		t.Fatal("the command did not stop on SIGINT")
	}
	waitGone(t, bg, 10*time.Second)
}

// TestMoments: the worker's 'X' frame tells when it began to fork the
// command and when it reaped it (the bench's phase split), in order.
func TestMoments(t *testing.T) {
	sock, _ := startWorker(t)
	before := time.Now()
	c, err := worker.Start(context.Background(), sock, worker.Request{Argv: []string{"true"}, Env: env}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if st, err := c.Wait(); err != nil || st != 0 {
		t.Fatalf("status %d, %v", st, err)
	}
	if c.Started.Before(before) || c.Reaped.Before(c.Started) || time.Now().Before(c.Reaped) {
		t.Errorf("moments out of order: request %v, fork %v, reap %v", before, c.Started, c.Reaped)
	}
}
