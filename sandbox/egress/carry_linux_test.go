// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// quickHealth is the bridge's health with short waits, for a test.
func quickHealth(sock string) *health {
	return &health{sock: sock, answerWait: 200 * time.Millisecond, pingTimeout: 200 * time.Millisecond, pingEvery: 50 * time.Millisecond}
}

// bridgeTo serves a bridge with short waits on 127.0.0.1 to the Unix
// socket sock and returns its address.
func bridgeTo(t *testing.T, sock string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	h := quickHealth(sock)
	go h.serve(l)
	return l.Addr().String()
}

func connectVia(t *testing.T, bridge, target string) (*http.Response, error) {
	c, err := net.Dial("tcp", bridge)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(30 * time.Second)) // a safety net, not an assertion
	fmt.Fprintf(c, "GET http://%s/ HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	return http.ReadResponse(bufio.NewReader(c), nil)
}

// TestBridgeStalledProxy: a proxy socket that takes connections but
// never answers (a stopped launcher) makes the bridge answer 504 with a
// clear line instead of hanging; a live proxy in front of a slow server
// is not cut off (positive control).
func TestBridgeStalledProxy(t *testing.T) {
	dir := t.TempDir()
	stalled := filepath.Join(dir, "stalled.sock")
	sl, err := net.Listen("unix", stalled) // never accepts: the backlog takes connections
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sl.Close() })
	resp, err := connectVia(t, bridgeTo(t, stalled), "example.test")
	if err != nil {
		t.Fatalf("stalled proxy: %v, want a 504 answer", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusGatewayTimeout || !strings.Contains(string(b), "egress proxy on the host does not answer") {
		t.Errorf("stalled proxy: %d %q", resp.StatusCode, b)
	}

	slow := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(800 * time.Millisecond) // four of quickHealth's answerWait
		io.WriteString(w, "slow but fine\n")
	})}
	srvL, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go slow.Serve(srvL)
	t.Cleanup(func() { slow.Close() })
	port := srvL.Addr().(*net.TCPAddr).Port
	r, err := NewRules([]string{"slow.test"}, nil, []string{"127.0.0.1:" + strconv.Itoa(port)})
	if err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "live.sock")
	ll, err := Listen(live)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ll.Close() })
	p := New(r)
	p.Resolver = mapResolver{"slow.test": {netip.MustParseAddr("127.0.0.1")}}
	go p.Serve(ll)
	resp, err = connectVia(t, bridgeTo(t, live), "slow.test:"+strconv.Itoa(port))
	if err != nil {
		t.Fatalf("live proxy, slow server: %v", err)
	}
	b, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(b) != "slow but fine\n" {
		t.Errorf("live proxy, slow server: %d %q", resp.StatusCode, b)
	}
}

// TestBridgePresence: the proxy reports the bridge up while a presence
// connection is held, and down only when none came back within the
// grace period.
func TestBridgePresence(t *testing.T) {
	const grace = 100 * time.Millisecond
	sock := filepath.Join(t.TempDir(), "p.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	events := make(chan bool, 8)
	r, _ := NewRules(nil, nil, nil)
	p := New(r)
	p.OnBridge = func(up bool) { events <- up }
	p.bridgeGrace = grace
	go p.Serve(l)
	hold := func() net.Conn {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "GET "+BridgePath+" HTTP/1.1\r\nHost: bridge\r\n\r\n")
		return c
	}
	next := func() bool {
		select {
		case up := <-events:
			return up
		case <-time.After(10 * time.Second):
			t.Fatal("no report")
		}
		return false
	}
	a := hold()
	if !next() {
		t.Fatal("first presence: reported down")
	}
	// A restart: the old presence goes, a new one comes within the
	// grace period: no down report (up again is fine).
	a.Close()
	b := hold()
	time.Sleep(3 * grace)
	for len(events) > 0 {
		if !<-events {
			t.Fatal("restart within the grace period reported down")
		}
	}
	b.Close()
	if next() {
		t.Error("no presence left: reported up")
	}
}
