// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// LogName is the session's decision log, in the session directory: the
// launcher's proxy appends to it, the shims of the session read it after
// a command failed. Each record is one write on an O_APPEND descriptor,
// written before the client hears the answer, so a reader that starts
// after the command ended sees every decision the command caused.
const LogName = "egress.jsonl"

// SocketName is the proxy's socket in the session directory.
const SocketName = "egress.sock"

// Listen creates the proxy's Unix socket at path (the caller's directory
// is private to the user).
func Listen(path string) (net.Listener, error) {
	if len(path) > 107 {
		return nil, fmt.Errorf("egress proxy: socket path %s is longer than 107 bytes", path)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("egress proxy: %w", err)
	}
	return l, nil
}

// AppendLog appends d to the log file at path.
func AppendLog(path string, d Decision) error {
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("egress log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("egress log: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("egress log: %w", err)
	}
	return nil
}

// Refusals returns the refusals in the log at path made at or after
// since. Commands of a session share its proxy, so a refusal caused by
// another command running at the same time may show up too; the
// explanation names the host, which tells them apart for the reader.
func Refusals(path string, since time.Time) []Decision {
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		return nil
	}
	var out []Decision
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var d Decision
		if json.Unmarshal(sc.Bytes(), &d) == nil && !d.Allowed && !d.Time.Before(since) {
			out = append(out, d)
		}
	}
	return out
}

// Explain returns at most max explanation lines for refusals, one per
// host, each naming the host and the policy key that would let it
// through.
func Explain(refusals []Decision, max int) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range refusals {
		hp := HostPort(d.Host, d.Port)
		if d.Allowed || seen[hp] || len(out) >= max {
			continue
		}
		seen[hp] = true
		fix := fmt.Sprintf(`to allow: sandbox.allow_domains += ["%s"] in your config, or --allow-domain %s`, d.Host, d.Host)
		switch d.Key {
		case keyDenyDomains:
			fix = "to allow: remove it from sandbox.deny_domains"
		case keyAllowAddresses:
			fix = `to allow: sandbox.allow_addresses += ["ADDRESS"] in your config (user file only)`
		}
		out = append(out, fmt.Sprintf("lite-sandbox: network access to %s was refused: %s (%s)", hp, d.Reason, fix))
	}
	return out
}

// Since is a helper for callers that keep decisions in memory.
func Since(ds []Decision, t time.Time) []Decision {
	var out []Decision
	for _, d := range ds {
		if !d.Time.Before(t) {
			out = append(out, d)
		}
	}
	return out
}

// Dedup tells the first decision of its kind (allowed or refused, per
// host and port) from repeats, so that the audit log gets one record per
// destination of a command or session rather than one per connection of
// an `npm install`.
type Dedup struct {
	mu   sync.Mutex
	seen map[string]bool
}

// NewDedup returns an empty Dedup.
func NewDedup() *Dedup { return &Dedup{seen: map[string]bool{}} }

// First reports whether d is the first of its kind.
func (s *Dedup) First(d Decision) bool {
	k := fmt.Sprintf("%v %s %s", d.Allowed, HostPort(d.Host, d.Port), d.Key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[k] {
		return false
	}
	s.seen[k] = true
	return true
}
