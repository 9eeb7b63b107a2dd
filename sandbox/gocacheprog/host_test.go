// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package gocacheprog

import (
	"encoding/hex"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startHost serves dir on a new socket for the test's life.
func startHost(t *testing.T, dir string) (string, *Host) {
	t.Helper()
	sd, err := os.MkdirTemp("", "gocache-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sd) })
	sock := filepath.Join(sd, "s")
	h, stop, err := Listen(sock, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return sock, h
}

// hostEntries writes a host cache: a compiled package good under "host
// action", an entry whose output does not hash to the output ID it names
// under "bad action", and a cached test output (plain text) under "test
// action".
func hostEntries(t *testing.T, host string, good []byte) {
	t.Helper()
	now := time.Unix(1700000000, 0)
	testOut := []byte("ok  \texample.com/x\t0.01s\nsecret=hunter2\n")
	for _, e := range []struct {
		action string
		out    []byte
		body   []byte
	}{
		{"host action", id(string(good)), good},
		{"bad action", id("original"), []byte("!<arch>\ntampered")},
		{"test action", id(string(testOut)), testOut},
	} {
		if _, err := store(host, id(e.action), e.out, e.body, now); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHostRequests: the launcher's server answers one exact action ID
// per connection; anything else (no ID, a path, a listing, an ID of the
// wrong size or case) is an error, a cached test output and an entry
// that does not verify are misses, and only the compiled package is
// served (the positive control). The host's cache is unchanged.
func TestHostRequests(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	good := []byte("!<arch>\ncompiled package")
	hostEntries(t, host, good)
	before := listing(t, host)
	sock, h := startHost(t, host)
	hexID := func(s string) string { return hex.EncodeToString(id(s)) }
	for _, tc := range []struct {
		name, req, want string
	}{
		{"compiled package", "get " + hexID("host action") + "\n", "hit " + hexID(string(good)) + " 24\n" + string(good)},
		{"no ID", "get \n", "error: "},
		{"nothing", "\n", "error: "},
		{"closed without a line", "", "error: "},
		{"a path", "get ../../../../etc/passwd\n", "error: "},
		{"a listing", "list\n", "error: "},
		{"an entry's file name", "get " + hexID("host action") + "-a\n", "error: "},
		{"upper-case hex", "get " + strings.ToUpper(hexID("host action")) + "\n", "error: "},
		{"short ID", "get " + hexID("host action")[:62] + "\n", "error: "},
		{"absent", "get " + hexID("nothing") + "\n", "miss\n"},
		{"unverified", "get " + hexID("bad action") + "\n", "miss\n"},
		{"test output", "get " + hexID("test action") + "\n", "miss\n"},
	} {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, tc.req)
		c.(*net.UnixConn).CloseWrite()
		got, _ := io.ReadAll(c)
		c.Close()
		if !strings.HasPrefix(string(got), tc.want) || (tc.want != "error: " && string(got) != tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if n := h.Served.Load(); n != 1 {
		t.Errorf("served %d, want 1", n)
	}
	if after := listing(t, host); after != before {
		t.Errorf("the host's cache changed:\n%s\nwas\n%s", after, before)
	}
}
