// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
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

// The rotation of LogName: the launcher appends with the audit log's
// rotation (shims/audit.AppendRotated, under an flock), LogMaxBytes per
// file and LogKeep rotated files beside it.
const (
	LogMaxBytes = 4 << 20
	LogKeep     = 1
)

// Marshal encodes d as one log line.
func Marshal(d Decision) ([]byte, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("egress log: %w", err)
	}
	return append(b, '\n'), nil
}

// Activity is what one command did through the proxy.
type Activity struct {
	// Own are the connections that carried the command's identifier.
	Own []Decision
	// Unattributed are the connections in the command's time window
	// that carried no identifier: a tool that drops proxy credentials
	// (Java, some Node agents) may have made them, or any other
	// command of the session.
	Unattributed []Decision
	// BridgeDown is set when the sandbox's bridge is gone: no
	// connection can reach the proxy.
	BridgeDown bool
	// Stopped is the pid of the proxy's process when it was stopped
	// (SIGSTOP, ^Z) and continued since the command started; 0 if not.
	Stopped int
}

// ActivityOf sorts decisions (oldest first) made at or after since into
// the Activity of command id.
func ActivityOf(ds []Decision, id string, since time.Time) Activity {
	var a Activity
	for _, d := range ds {
		switch {
		case d.Time.Before(since):
		case id != "" && d.Command == id:
			a.Own = append(a.Own, d)
		case d.Command == "":
			a.Unattributed = append(a.Unattributed, d)
		}
	}
	return a
}

// readCap bounds how much of the log one explanation reads.
const readCap = 8 << 20

// readTail calls fn for the records of the file at name, newest first,
// until one is older than stop; it reports whether it met one, and how
// many bytes it read.
func readTail(name string, stop time.Time, budget int, fn func(Decision)) (bool, int) {
	f, err := os.Open(name)
	if err != nil {
		return false, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, 0
	}
	const chunk = 64 << 10
	end, read := fi.Size(), 0
	var rest []byte // the start of a line whose beginning is in the next chunk back
	for end > 0 && read < budget {
		start := max(end-chunk, 0)
		buf := make([]byte, end-start, int(end-start)+len(rest))
		if _, err := f.ReadAt(buf, start); err != nil {
			return false, read
		}
		read += len(buf)
		buf = append(buf, rest...)
		lines := bytes.Split(buf, []byte{'\n'})
		if start > 0 {
			rest, lines = lines[0], lines[1:]
		} else {
			rest = nil
		}
		for i := len(lines) - 1; i >= 0; i-- {
			var d Decision
			if len(lines[i]) == 0 || json.Unmarshal(lines[i], &d) != nil {
				continue
			}
			if d.Time.Before(stop) {
				return true, read
			}
			fn(d)
		}
		end = start
	}
	return false, read
}

// Dedup tells the first connection of its kind (per command, result
// and destination) from repeats, so that the audit log gets one record
// per destination of each command rather than one per connection of an
// `npm install`; the session's egress.jsonl keeps every connection.
type Dedup struct {
	mu   sync.Mutex
	seen map[string]bool
}

// NewDedup returns an empty Dedup.
func NewDedup() *Dedup { return &Dedup{seen: map[string]bool{}} }

// First reports whether d is the first of its kind.
func (s *Dedup) First(d Decision) bool {
	k := fmt.Sprintf("%s %s %s %s", d.Command, d.Result, HostPort(d.Host, d.Port), d.Key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[k] {
		return false
	}
	s.seen[k] = true
	return true
}

// Refusals returns the distinct destinations (host:port) the rules
// refused in the log at path (and its rotated file) since since, in the
// order first refused, at most max of them, and how many more there
// were: the agent ring's closing line (docs/ring.md "The network").
func Refusals(path string, since time.Time, max int) ([]string, int) {
	var ds []Decision
	budget := readCap
	for _, name := range []string{path, path + ".1"} {
		older, n := readTail(filepath.Clean(name), since, budget, func(d Decision) {
			if d.Refused() {
				ds = append(ds, d)
			}
		})
		budget -= n
		if older || budget <= 0 {
			break
		}
	}
	slices.Reverse(ds)
	var out []string
	more, seen := 0, map[string]bool{}
	for _, d := range ds {
		hp := HostPort(d.Host, d.Port)
		if d.Host == "" || seen[hp] {
			continue
		}
		seen[hp] = true
		if len(out) < max {
			out = append(out, hp)
		} else {
			more++
		}
	}
	return out, more
}
