// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// TestAuditSink: records sent to the session's socket are appended by
// the launcher with the session's id, whatever the sender claimed;
// datagrams that are no record are counted as dropped; what is queued
// when the session closes is still written.
func TestAuditSink(t *testing.T) {
	t.Parallel()
	sess := filepath.Join(t.TempDir(), "s-0123")
	logDir := t.TempDir()
	if err := mkdirPrivate(sess); err != nil {
		t.Fatal(err)
	}
	a, err := startAuditSink(sess, logDir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: filepath.Join(sess, contract.AuditName), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, d := range []string{
		`{"command":"echo one","decision":"allow","session":"s-forged"}`,
		`not json`,
		`{"command":"echo two","decision":"deny","rule":"git.push.force"}`,
	} {
		if _, err := c.Write([]byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	if n := a.close(); n != 1 {
		t.Errorf("dropped %d, want 1", n)
	}
	rs, err := audit.Read(logDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Command != "echo one" || rs[1].Rule != "git.push.force" {
		t.Fatalf("records %+v", rs)
	}
	for _, r := range rs {
		if r.Session != "s-0123" {
			t.Errorf("session %q, want the launcher's s-0123", r.Session)
		}
	}
}

func mkdirPrivate(d string) error { return os.Mkdir(d, 0o700) }
