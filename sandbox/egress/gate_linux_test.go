// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"errors"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestGateSizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		nofile         uint64
		total, perPeer int
	}{
		{1024, 448, 112},
		{256, 96, 24},
		{64, 32, 16}, // the floors
		{1 << 20, 8192, 2048},
	} {
		g := newGate(c.nofile)
		if g.maxTotal != c.total || g.maxPer != c.perPeer {
			t.Errorf("newGate(%d) = %d in all, %d per client; want %d, %d", c.nofile, g.maxTotal, g.maxPer, c.total, c.perPeer)
		}
	}
	g := &gate{per: map[string]int{}, noted: map[string]time.Time{}, maxTotal: 3, maxPer: 2}
	for i, want := range []bool{true, true, false} {
		if got := g.take("a") == ""; got != want {
			t.Errorf("take a #%d = %v, want %v", i, got, want)
		}
	}
	if g.take("b") != "" || g.take("c") == "" {
		t.Error("the bound in all: b is the third connection and may, c the fourth and may not")
	}
	g.release("a")
	if g.take("c") != "" {
		t.Error("a released one: c may now")
	}
}

// flakyListener fails Accept with EMFILE n times before passing on.
type flakyListener struct {
	net.Listener
	mu sync.Mutex
	n  int
}

func (l *flakyListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	fail := l.n > 0
	l.n--
	l.mu.Unlock()
	if fail {
		return nil, &net.OpError{Op: "accept", Net: "unix", Err: syscall.EMFILE}
	}
	return l.Listener.Accept()
}

// ping asks the proxy at sock for PingPath from a process of its own
// process group (curl: the gate counts by group) and returns the answer.
func pingFrom(t *testing.T, sock string) string {
	t.Helper()
	cmd := exec.Command("curl", "-sS", "-m", "20", "--unix-socket", sock, "http://proxy"+PingPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "error: " + err.Error() + ": " + string(out)
	}
	return string(out)
}

// TestServeSurvivesAcceptErrors: an accept that fails with EMFILE (the
// process out of descriptors) is waited out; connections are served
// afterwards (issue #27: the loop used to return, and every later
// request failed).
func TestServeSurvivesAcceptErrors(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	sock := filepath.Join(t.TempDir(), "p.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	fl := &flakyListener{Listener: l, n: 8}
	p := New(&Rules{})
	done := make(chan error, 1)
	go func() { done <- p.Serve(fl) }()
	if got := pingFrom(t, sock); got != "ok\n" {
		t.Errorf("ping after %d failed accepts: %q, want ok", 8, got)
	}
	l.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after Close: %v, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("Serve did not return after the listener closed")
	}
}

// TestGateTurnsAwayOneClient: one client (this process's group) holding
// its share is answered 503 with the reason for one more, recorded
// without a target; a client of another process group is served
// meanwhile (the positive control), and this one again once it let go.
func TestGateTurnsAwayOneClient(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	sock := filepath.Join(t.TempDir(), "p.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var ds []Decision
	p := New(&Rules{})
	p.Record = func(d Decision) { mu.Lock(); ds = append(ds, d); mu.Unlock() }
	p.init()
	p.gate = &gate{per: map[string]int{}, noted: map[string]time.Time{}, maxTotal: 8, maxPer: 4}
	go p.Serve(l)
	var held []net.Conn
	for range 4 {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	b, _ := io.ReadAll(c)
	c.Close()
	if !strings.HasPrefix(string(b), "HTTP/1.1 503") || !strings.Contains(string(b), "already holds 4 connections") {
		t.Errorf("the fifth connection of one client got %q, want a 503 naming the bound", b)
	}
	if got := pingFrom(t, sock); got != "ok\n" {
		t.Errorf("another process group while the first holds its share: %q, want ok", got)
	}
	mu.Lock()
	if len(ds) != 1 || ds[0].Result != ResultRefused || ds[0].Via != ViaAccept || !strings.Contains(ds[0].Reason, "too many connections") {
		t.Errorf("records = %+v, want one refusal without a target", ds)
	}
	mu.Unlock()
	for _, c := range held {
		c.Close()
	}
	// The gate counts a connection until the proxy closed its end.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("GET " + PingPath + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		b, err := io.ReadAll(c)
		c.Close()
		if err == nil && strings.HasPrefix(string(b), "HTTP/1.1 200") {
			break
		}
		if time.Now().After(deadline) || errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("this client after it let go: %q, %v", b, err)
		}
	}
}

// TestNoTargetRecorded: requests refused before they named a target (a
// SOCKS5 BIND, a request that is not a proxy request) are recorded with
// host "-"; a CONNECT to a refused name (the control) keeps its host.
func TestNoTargetRecorded(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "p.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var ds []Decision
	r, err := NewRules([]string{"example.com"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := New(r)
	p.Record = func(d Decision) { mu.Lock(); ds = append(ds, d); mu.Unlock() }
	go p.Serve(l)
	for _, req := range [][]byte{
		// greeting (no auth), then BIND 0.0.0.0:0
		{5, 1, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0},
		[]byte("GET /not-a-proxy-request HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
		[]byte("CONNECT other.example:443 HTTP/1.1\r\nHost: other.example:443\r\nConnection: close\r\n\r\n"),
	} {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		c.Write(req)
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		io.ReadAll(c) // to the proxy's close: the record comes before
		c.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, d := range ds {
		got = append(got, d.Via+" "+d.Host)
	}
	if strings.Join(got, ", ") != "socks5 -, http -, connect other.example" {
		t.Errorf("records %q, want socks5 -, http -, connect other.example (%+v)", got, ds)
	}
}
