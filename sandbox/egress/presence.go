// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// BridgeDownName is the file in a session directory that says the
// session's bridge is gone (both processes of the pair died): written by
// the launcher ([MarkBridge]), read with the log ([ReadActivity]).
const BridgeDownName = "egress-bridge.down"

// defaultBridgeGrace is how long no presence connection is taken as a
// restart in progress (a standby taking over reconnects within it)
// rather than a bridge that is gone.
const defaultBridgeGrace = 1500 * time.Millisecond

// holdBridge serves one presence connection of the bridge until it
// closes.
func (p *Proxy) holdBridge(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	c, _, err := hj.Hijack()
	if err != nil {
		return
	}
	p.presence(+1)
	io.Copy(io.Discard, c)
	c.Close()
	p.presence(-1)
}

// presence counts the bridge's presence connections and reports to
// OnBridge: up at once, down when none came back within bridgeGrace.
func (p *Proxy) presence(delta int) {
	p.bridgeMu.Lock()
	defer p.bridgeMu.Unlock()
	p.bridges += delta
	p.bridgeGen++
	if p.OnBridge == nil {
		return
	}
	switch {
	case delta > 0 && p.bridges == 1:
		p.OnBridge(true)
	case p.bridges == 0:
		gen, grace := p.bridgeGen, p.bridgeGrace
		if grace == 0 {
			grace = defaultBridgeGrace
		}
		time.AfterFunc(grace, func() {
			p.bridgeMu.Lock()
			defer p.bridgeMu.Unlock()
			if p.bridgeGen == gen && p.bridges == 0 {
				p.OnBridge(false)
			}
		})
	}
}

// MarkBridge records in the session directory dir whether the bridge is
// up: it is Proxy.OnBridge of a session's proxy.
func MarkBridge(dir string, up bool) {
	f := filepath.Join(dir, BridgeDownName)
	if up {
		os.Remove(f)
		return
	}
	os.WriteFile(f, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o600)
}

// bridgeDownLine is the explanation when the bridge is gone.
const bridgeDownLine = `lite-sandbox: this session has no network any more: its egress bridge inside the sandbox was killed and could not be restarted (every connection to 127.0.0.1:3128 and :1080 is refused); start a new session`

// StoppedLine is the explanation when the process that serves a
// session's proxy (the launcher, pid) is stopped (SIGSTOP, ^Z): the
// bridge then answers 504 after a bounded wait (carry_linux.go), and
// this line says why and what to do. It returns "" when pid runs, or
// where /proc does not say.
func StoppedLine(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return ""
	}
	// The state follows the command name in parentheses, which may
	// itself hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) || b[i+2] != 'T' && b[i+2] != 't' {
		return ""
	}
	return fmt.Sprintf("lite-sandbox: the session's launcher (pid %d) is stopped, so its network proxy does not answer and connections were cut after a short wait: resume it (fg in its terminal, or kill -CONT %d)", pid, pid)
}
