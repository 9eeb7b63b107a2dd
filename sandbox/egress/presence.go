// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
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

// stoppedLine is the explanation when the process that serves a
// session's proxy (the launcher, pid) was stopped (SIGSTOP, ^Z) while
// the command ran: the bridge then answers 504 after a bounded wait
// (carry_linux.go), and this line says why.
func stoppedLine(pid int) string {
	return fmt.Sprintf("lite-sandbox: the session's launcher (pid %d) was stopped while this command ran, so its network proxy did not answer and connections were cut after a short wait; it runs again now (a stopped launcher is resumed with fg in its terminal, or kill -CONT %d)", pid, pid)
}
