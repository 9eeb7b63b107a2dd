// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package audit appends one JSON line per command to the user's audit
// log ($XDG_STATE_HOME/lite-sandbox/audit.jsonl, default
// ~/.local/state/lite-sandbox/audit.jsonl) and reads it back for
// `lite-sandbox log`. The log lives outside every sandbox: sandboxed
// commands can neither read nor rewrite it (docs/security-model.md §7).
package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// FileName is the log's name in [Dir].
const FileName = "audit.jsonl"

// maxCommand bounds the command text kept in one record, so that a
// record stays one small write.
const maxCommand = 4096

// Record is one command.
type Record struct {
	Time time.Time `json:"time"`
	// Session is the session's id ("s-..."), or "" for a command run
	// outside a session.
	Session   string `json:"session,omitempty"`
	Workspace string `json:"workspace"`
	Cwd       string `json:"cwd,omitempty"`
	Command   string `json:"command"`
	// Decision is the validator's: allow, ask or deny.
	Decision string `json:"decision"`
	Rule     string `json:"rule,omitempty"`
	// Reason is why a command was refused or did not run: the rule's
	// reason, or the shim's (a working directory outside the
	// workspace, arguments it refuses, a sandbox that failed).
	Reason string `json:"reason,omitempty"`
	// Sandbox is how the command ran: sandboxed, unsandboxed, off.
	Sandbox string `json:"sandbox,omitempty"`
	// Status is the exit status; -1 when the command did not run.
	Status     int     `json:"status"`
	DurationMS float64 `json:"duration_ms"`
	// Egress is the host:port of a network = "allow" proxy decision
	// (then Decision is allow or deny and Rule the refusing policy key).
	Egress string `json:"egress,omitempty"`
	// EgressResult is allow, refused or failed (allowed, but the name
	// did not resolve or the dial failed); EgressAddr the address
	// dialled; CommandID the identifier of the command that connected
	// (sandbox/egress: from its proxy credentials), "" when unknown.
	EgressResult string `json:"egress_result,omitempty"`
	EgressAddr   string `json:"egress_addr,omitempty"`
	CommandID    string `json:"command_id,omitempty"`
	// For an `ask` rule's command: the person's answer (once, session,
	// no; "" when nobody answered), how the question ended (prompt,
	// approve, grant, timeout, none), who answered and when (RFC 3339).
	Answer      string `json:"answer,omitempty"`
	AnsweredHow string `json:"answered_how,omitempty"`
	AnsweredBy  string `json:"answered_by,omitempty"`
	AnsweredAt  string `json:"answered_at,omitempty"`
}

// Dir returns the directory of the log.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "lite-sandbox"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("audit: %w", err)
		}
	}
	return filepath.Join(home, ".local", "state", "lite-sandbox"), nil
}

// Append adds r to the log in dir with a single write on a descriptor
// opened with O_APPEND, under the log's lock, so that records of
// concurrent shims never interleave; it rotates the log by size (see
// maxBytes).
func Append(dir string, r Record) error {
	if len(r.Command) > maxCommand {
		r.Command = r.Command[:maxCommand] + "…"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // commands are full of < > &
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if err := appendRecord(dir, buf.Bytes()); err != nil { // one line, newline included
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// LastSession returns the id of the newest record that belongs to a
// session, or "".
func LastSession(recs []Record) string {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Session != "" {
			return recs[i].Session
		}
	}
	return ""
}

// Egress is one connection of the network = "allow" proxy, as
// [EgressRecord] records it.
type Egress struct {
	Time               time.Time
	Workspace, Session string
	CommandID          string
	Via                string // connect, http or socks5
	HostPort, Addr     string
	Result             string // allow, refused or failed
	Key                string // the refusing policy key
}

// EgressRecord is the record of one connection of the network = "allow"
// proxy: Decision deny for a refusal (Rule the policy key), allow
// otherwise, with the result and the address dialled.
func EgressRecord(e Egress) Record {
	r := Record{Time: e.Time, Session: e.Session, Workspace: e.Workspace, Command: "(network " + e.Via + ") " + e.HostPort,
		Egress: e.HostPort, Decision: "allow", Sandbox: "egress", Status: -1,
		EgressResult: e.Result, EgressAddr: e.Addr, CommandID: e.CommandID}
	switch e.Result {
	case "refused":
		r.Decision, r.Rule = "deny", e.Key
	case "failed":
		// Allowed, but it did not connect: `lite-sandbox log` shows it.
		r.Command += " (failed)"
	}
	return r
}
