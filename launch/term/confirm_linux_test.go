// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// confirmRig is a launcher's terminal (a pty: the test types on its
// master, the launcher reads its slave) and an agent's pty (the agent
// writes on its slave), joined by a ptyJob as Run joins them.
type confirmRig struct {
	user, tty   *os.File // the person's side, the launcher's side
	ptmx, agent *os.File // the launcher's side, the agent's side
	mu          sync.Mutex
	screen      bytes.Buffer // what reached the person's terminal
}

func newConfirmRig(t *testing.T) *confirmRig {
	t.Helper()
	user, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	ptmx, agent, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 80})
	r := &confirmRig{user: user, tty: tty, ptmx: ptmx, agent: agent}
	self, _ := os.FindProcess(os.Getpid())
	j := &ptyJob{tty: tty, fd: int(tty.Fd()), ptmx: ptmx, leader: &exec.Cmd{Process: self},
		suspKey: make(chan struct{}, 1), out: tty}
	if err := j.enterRaw(); err != nil {
		t.Fatal(err)
	}
	go j.copyInput()
	go j.copyOutput()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := user.Read(buf)
			r.mu.Lock()
			r.screen.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if !current.CompareAndSwap(nil, j) {
		t.Fatal("another launch owns the terminal")
	}
	t.Cleanup(func() {
		current.CompareAndSwap(j, nil)
		for _, f := range []*os.File{user, tty, ptmx, agent} {
			f.Close()
		}
	})
	return r
}

func (r *confirmRig) shows(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Contains(r.screen.String(), s)
}

// waitShows waits (a hang guard) for s on the person's terminal.
func (r *confirmRig) waitShows(t *testing.T, s string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !r.shows(s); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q; it shows %q", s, r.screen.String())
		}
	}
}

// TestConfirm: the confirm line is drawn on the person's terminal with
// the question made visible; while it is up, the agent's output is held
// and the keys do not reach the agent; terminal replies (escape class
// 62) do not answer it; y is yes, Esc or another key is no (class 64:
// the question ends); ctx's end withdraws it. Not parallel: one
// terminal a process.
func TestConfirm(t *testing.T) {
	for _, c := range []struct {
		name    string
		typed   []string
		wantYes bool
		wantErr bool
	}{
		{"y", []string{"y"}, true, false},
		{"replies, then y", []string{"\x1b[24;80R", "\x1b[?1;2c\x1b[I\x1b]11;rgb:0/0/0\x07", "y"}, true, false},
		{"replies only", []string{"\x1b[24;80R\x1b[?62;22c\x1b[<0;89;89M"}, false, true},
		{"esc", []string{"\x1b"}, false, false},
		{"enter", []string{"\r"}, false, false},
		{"paste holding y", []string{"\x1b[200~y\x1b[201~"}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newConfirmRig(t)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if c.wantErr {
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
			}
			type result struct {
				yes bool
				err error
			}
			done := make(chan result, 1)
			go func() {
				yes, err := Confirm(ctx, []string{"lite-sandbox: QUESTION-MARK", "  run: touch \x1b[2Jx"})
				done <- result{yes, err}
			}()
			r.waitShows(t, "QUESTION-MARK")
			if !r.shows(`touch \x1b[2Jx`) {
				t.Errorf("the command's escape was not made visible: %q", r.screen.String())
			}
			r.agent.Write([]byte("AGENT-OUTPUT"))
			for _, k := range c.typed {
				r.user.Write([]byte(k))
			}
			if c.wantErr {
				// The replies leave the line up: nothing answers until
				// the question is withdrawn (the agent's hook ends).
				r.agent.Write([]byte("y")) // the agent's y is output, never input
				select {
				case got := <-done:
					t.Fatalf("answered by replies: %+v", got)
				case <-time.After(300 * time.Millisecond):
				}
				cancel()
			}
			got := <-done
			if got.yes != c.wantYes || (got.err != nil) != c.wantErr {
				t.Fatalf("Confirm = %v, %v; want yes=%v err=%v", got.yes, got.err, c.wantYes, c.wantErr)
			}
			if c.wantErr && !errors.Is(got.err, context.Canceled) {
				t.Errorf("withdrawn: %v", got.err)
			}
			// The held output follows the line's end (DECRC); the keys
			// never reached the agent, the next ones do.
			r.waitShows(t, "AGENT-OUTPUT")
			r.mu.Lock()
			scr := r.screen.String()
			r.mu.Unlock()
			if strings.Index(scr, "AGENT-OUTPUT") < strings.LastIndex(scr, "\x1b8") {
				t.Errorf("the agent's output was not held while the line was up: %q", scr)
			}
			r.user.Write([]byte("NEXT\r"))
			line := make([]byte, 256)
			n, err := r.agent.Read(line)
			if err != nil || string(line[:n]) != "NEXT\n" {
				t.Errorf("the agent read %q (%v), want only the key after the line", line[:n], err)
			}
		})
	}
}
