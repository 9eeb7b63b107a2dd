// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
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

// bridgeGrace is how long no presence connection is taken as a restart
// in progress (a standby taking over reconnects within it) rather than
// a bridge that is gone.
var bridgeGrace = 1500 * time.Millisecond

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
		gen := p.bridgeGen
		time.AfterFunc(bridgeGrace, func() {
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
