// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
)

// discardLog silences http.Server's own log: a client that hangs up is
// not news.
var discardLog = log.New(io.Discard, "", 0)

// PingPath is the bridge's liveness request: GET PingPath (not a proxy
// request) is answered "ok" by a proxy that is running.
const PingPath = "/.lite-sandbox/ping"

// BridgePath is the bridge server's presence: the proxy holds the
// connection, and while none is held the sandbox has no bridge
// ([Proxy.OnBridge]).
const BridgePath = "/.lite-sandbox/bridge"

// ErrorHeader marks the proxy's own refusals (curl -v shows it).
const ErrorHeader = "X-Proxy-Error"

// serveHTTP is the HTTP side: CONNECT tunnels and plain requests with an
// absolute URL. Both are the standard library's: net/http parses the
// request, Hijacker hands over the connection for CONNECT, and
// http.Transport forwards plain requests through dialChecked.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	r = r.WithContext(withCommand(r.Context(), idFromProxyAuth(r.Header.Get("Proxy-Authorization"))))
	if r.Method == http.MethodGet && !r.URL.IsAbs() {
		switch r.URL.Path {
		case PingPath:
			// The bridge's liveness check (supervise_linux.go):
			// answered at once, whatever the rules.
			io.WriteString(w, "ok\n")
			return
		case BridgePath:
			p.holdBridge(w)
			return
		}
	}
	if r.Method == http.MethodConnect {
		p.serveConnect(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Host == "" {
		p.noTarget(r.Context(), "http", "not a proxy request (an absolute URL or CONNECT)")
		http.Error(w, "lite-sandbox egress proxy: only proxy requests (absolute URL or CONNECT)", http.StatusBadRequest)
		return
	}
	if r.URL.Scheme != "http" {
		p.noTarget(r.Context(), "http", "only http:// URLs are forwarded (use CONNECT for https), not "+printable(r.URL.Scheme)+"://")
		http.Error(w, "lite-sandbox egress proxy: only http:// URLs are forwarded; use CONNECT for https", http.StatusBadRequest)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Host = r.URL.Host
	removeHopHeaders(out.Header)
	if !strings.Contains(out.URL.Host, ":") || strings.HasSuffix(out.URL.Host, "]") {
		out.URL.Host = net.JoinHostPort(strings.Trim(out.URL.Host, "[]"), "80")
	}
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		refuse(w, err)
		return
	}
	defer resp.Body.Close()
	removeHopHeaders(resp.Header)
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// serveConnect opens a tunnel to a vetted address.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	target := r.Host
	if target == "" {
		target = r.URL.Host
	}
	up, err := p.dialChecked(r.Context(), target, "connect")
	if err != nil {
		refuse(w, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "lite-sandbox egress proxy: cannot tunnel", http.StatusInternalServerError)
		return
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		c.Close()
		up.Close()
		return
	}
	// Bytes the client sent after the request (a TLS hello) are already
	// in the server's buffer.
	if n := brw.Reader.Buffered(); n > 0 {
		b, _ := brw.Reader.Peek(n)
		if _, err := up.Write(b); err != nil {
			c.Close()
			up.Close()
			return
		}
	}
	pipe(c, up)
}

// refuse answers a refusal with 403 and one line naming the host and the
// policy key, or a dial failure with 502.
func refuse(w http.ResponseWriter, err error) {
	var ref *refusal
	if errors.As(err, &ref) && !ref.Failed {
		w.Header().Set(ErrorHeader, "blocked-by-lite-sandbox")
		http.Error(w, refusalLine(Decision{Host: ref.Host, Port: ref.Port, Key: ref.Key, Reason: ref.Reason, Result: ResultRefused}), http.StatusForbidden)
		return
	}
	http.Error(w, "lite-sandbox egress proxy: "+err.Error(), http.StatusBadGateway)
}

// hopHeaders are the hop-by-hop headers (RFC 9110 §7.6.1) plus the
// proxy's own.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func removeHopHeaders(h http.Header) {
	for _, f := range h.Values("Connection") {
		for _, k := range strings.Split(f, ",") {
			h.Del(strings.TrimSpace(k))
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}
