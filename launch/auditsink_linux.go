// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// auditSink is the launcher's side of the session's audit socket
// (contract.AuditName, unixgram): a shim of the session sends each
// record there as one JSON datagram, and the launcher appends it to the
// audit log. Inside the agent ring the log's directory (~/.local/state)
// is read-only and the session directory too, but a socket on a
// read-only mount still takes datagrams.
type auditSink struct {
	conn    *net.UnixConn
	dir     string // the audit log's directory
	session string // the session id every record gets
	dropped atomic.Int64
	done    chan struct{}
	closing atomic.Bool
}

// startAuditSink listens on <sessionDir>/audit.sock and appends what
// arrives to the log in logDir.
func startAuditSink(sessionDir, logDir string) (*auditSink, error) {
	addr := &net.UnixAddr{Name: filepath.Join(sessionDir, contract.AuditName), Net: "unixgram"}
	c, err := net.ListenUnixgram("unixgram", addr)
	if err != nil {
		return nil, err
	}
	// Room for bursts (parallel commands) while a record is written.
	c.SetReadBuffer(1 << 20)
	a := &auditSink{conn: c, dir: logDir, session: filepath.Base(sessionDir), done: make(chan struct{})}
	go a.serve()
	return a, nil
}

// serve appends each datagram as one record. A datagram that is no
// record, or a log that cannot be written, counts as dropped: the
// command it describes has run already and nothing waits for the log.
func (a *auditSink) serve() {
	defer close(a.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := a.conn.Read(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !a.closing.Load() {
				continue
			}
			return
		}
		var r audit.Record
		if json.Unmarshal(buf[:n], &r) != nil {
			a.dropped.Add(1)
			continue
		}
		// The session is the launcher's to say, not the sender's.
		r.Session = a.session
		if audit.Append(a.dir, r) != nil {
			a.dropped.Add(1)
		}
	}
}

// close appends what is still queued, stops, and returns how many
// records were dropped.
func (a *auditSink) close() int64 {
	a.closing.Store(true)
	// Queued datagrams are read at once; then the deadline ends serve.
	a.conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	<-a.done
	a.conn.Close()
	return a.dropped.Load()
}

// openAudit starts the session's audit sink when logDir is set.
func openAudit(sessionDir, logDir string) (*auditSink, error) {
	if logDir == "" {
		return nil, nil
	}
	a, err := startAuditSink(sessionDir, logDir)
	if err != nil {
		return nil, fmt.Errorf("session: audit socket: %w", err)
	}
	return a, nil
}

// closeAudit stops the audit sink after appending what is queued, and
// notes in the worker log how many records were lost.
func (s *Session) closeAudit() {
	if s.audit == nil {
		return
	}
	if n := s.audit.close(); n > 0 && s.log != nil {
		s.logf("%d audit records could not be written", n)
	}
}
