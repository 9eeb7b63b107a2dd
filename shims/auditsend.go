// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// auditSendTimeout bounds how long a record may hold the command's
// status back when the launcher's queue is full.
const auditSendTimeout = 100 * time.Millisecond

// maxSentCommand bounds the command text in a datagram (the log keeps
// 4 KiB of it anyway).
const maxSentCommand = 8 << 10

// appendAudit writes r: in a session, as one datagram to the launcher,
// which appends it to the log (inside the agent ring the log's directory
// is read-only); outside a session, or in a session without an audit
// socket, straight to the log in dir.
func (s *Shim) appendAudit(dir string, r audit.Record) error {
	if s.session == nil {
		return audit.Append(dir, r)
	}
	err := sendAudit(filepath.Join(s.session.Dir, contract.AuditName), r)
	if errors.Is(err, os.ErrNotExist) {
		return audit.Append(dir, r)
	}
	return err
}

// sendAudit sends r to the launcher's audit socket. It never waits long:
// a launcher that is gone or does not keep up costs the record (the
// caller reports it on stderr), not the command's time.
func sendAudit(sock string, r audit.Record) error {
	if len(r.Command) > maxSentCommand {
		r.Command = r.Command[:maxSentCommand]
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		if errors.Is(err, syscall.ENOENT) {
			return os.ErrNotExist
		}
		return fmt.Errorf("audit record dropped (is the launcher gone?): %w", err)
	}
	defer c.Close()
	c.SetWriteDeadline(time.Now().Add(auditSendTimeout))
	if _, err := c.Write(b); err != nil {
		return fmt.Errorf("audit record dropped: %w", err)
	}
	return nil
}
