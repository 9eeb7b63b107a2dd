// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// TestSendAudit: a record arrives as one JSON datagram; a missing socket
// says so (the shim then writes the log itself); a launcher that is gone
// or does not read costs the record, never more than a moment.
func TestSendAudit(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "audit.sock")
	if err := sendAudit(sock, audit.Record{Command: "x"}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no socket: %v", err)
	}
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sendAudit(sock, audit.Record{Command: "echo hi", Decision: "allow"}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<16)
	n, err := c.Read(buf)
	var r audit.Record
	if err != nil || json.Unmarshal(buf[:n], &r) != nil || r.Command != "echo hi" {
		t.Fatalf("received %q, %v", buf[:n], err)
	}
	// Nobody reads: the queue fills, and each send gives up quickly.
	t0 := time.Now()
	var dropped int
	for i := 0; i < 2000 && dropped == 0; i++ {
		if sendAudit(sock, audit.Record{Command: string(make([]byte, 4000))}) != nil {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatal("a full queue never dropped a record")
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("sending into a full queue took %v", d)
	}
	// The launcher is gone: the socket file stays, nothing listens.
	c.Close()
	if err := sendAudit(sock, audit.Record{Command: "x"}); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Fatalf("gone launcher: %v", err)
	}
}
