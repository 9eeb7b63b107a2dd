// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Upstream is a (corporate) proxy the egress proxy chains to: every
// allowed connection is a CONNECT through it, plain HTTP included. What
// is vetted stays the same up to the name: the rules, the ports, and,
// when the name resolves on this host, its addresses (a name that
// resolves here to a special address is refused). What cannot be vetted
// is the address the upstream proxy itself dials: it resolves the name
// again, in its own network; a name that does not resolve here is
// passed on with only the name rules checked (docs/egress.md "Upstream
// proxy").
type Upstream struct {
	addr string // host:port of the upstream proxy
	auth string // Proxy-Authorization value, or ""
}

// ParseUpstream parses sandbox.upstream_proxy (or the host's
// HTTPS_PROXY): http://[user:password@]host[:port]. Only http:// is
// spoken to the upstream proxy (the tunnel inside carries TLS end to
// end).
func ParseUpstream(v string) (*Upstream, error) {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.Scheme != "http" || u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("upstream proxy %q: want http://[user:password@]host[:port]", redact(v))
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
	}
	up := &Upstream{addr: net.JoinHostPort(host, port)}
	if u.User != nil {
		pw, _ := u.User.Password()
		up.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw))
	}
	return up, nil
}

// UpstreamFromEnv returns the upstream proxy of the host's own
// environment (HTTPS_PROXY, then https_proxy), or nil. Our own bridge's
// address (a shim that runs inside a sandbox) is not an upstream.
func UpstreamFromEnv(getenv func(string) string) (*Upstream, error) {
	v := getenv("HTTPS_PROXY")
	if v == "" {
		v = getenv("https_proxy")
	}
	if v == "" {
		return nil, nil
	}
	up, err := ParseUpstream(v)
	if err != nil {
		return nil, fmt.Errorf("HTTPS_PROXY: %w", err)
	}
	if h, p, _ := net.SplitHostPort(up.addr); (h == "127.0.0.1" || h == "localhost") && p == fmt.Sprint(HTTPPort) {
		return nil, nil
	}
	return up, nil
}

// String names the upstream proxy without its credentials.
func (u *Upstream) String() string { return "http://" + u.addr }

// connect opens a tunnel to target through the upstream proxy.
func (u *Upstream) connect(ctx context.Context, target string, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "tcp", u.addr)
	if err != nil {
		return nil, fmt.Errorf("upstream proxy %s: %w", u.addr, err)
	}
	c.SetDeadline(time.Now().Add(timeout))
	req := "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n"
	if u.auth != "" {
		req += "Proxy-Authorization: " + u.auth + "\r\n"
	}
	if _, err := c.Write([]byte(req + "\r\n")); err != nil {
		c.Close()
		return nil, fmt.Errorf("upstream proxy %s: %w", u.addr, err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("upstream proxy %s: %w", u.addr, err)
	}
	if resp.StatusCode == http.StatusProxyAuthRequired {
		c.Close()
		return nil, &upstreamAuthError{addr: u.addr, sent: u.auth != ""}
	}
	if resp.StatusCode != http.StatusOK {
		c.Close()
		return nil, fmt.Errorf("upstream proxy %s refused CONNECT %s: %s", u.addr, target, resp.Status)
	}
	c.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		return &peekedConn{Conn: c, r: br}, nil
	}
	return c, nil
}

// Redact is v without the password of its user information: what the
// session's frozen policy (readable in the rings) keeps of
// sandbox.upstream_proxy; the launcher's proxies use the real one
// (#27).
func Redact(v string) string {
	if u, err := url.Parse(v); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.User(u.User.Username())
			return u.String()
		}
	}
	return v
}

// redact drops a password from a proxy URL for an error message.
func redact(v string) string {
	if u, err := url.Parse(v); err == nil && u.User != nil {
		u.User = url.User(u.User.Username())
		return u.String()
	}
	if i := strings.LastIndex(v, "@"); i >= 0 {
		return "…" + v[i:]
	}
	return v
}

// keyUpstreamProxy is the key of the upstream proxy, named when it asks
// for credentials.
const keyUpstreamProxy = "sandbox.upstream_proxy"

// upstreamAuthError is a 407 from the upstream proxy: it wants
// credentials, or other ones. The name is not at fault, and the
// explanation says so (#27).
type upstreamAuthError struct {
	addr string
	sent bool // credentials were sent, and refused
}

func (e *upstreamAuthError) Error() string {
	if e.sent {
		return fmt.Sprintf("the upstream proxy %s refused the credentials it was given (407 Proxy Authentication Required)", e.addr)
	}
	return fmt.Sprintf("the upstream proxy %s needs credentials (407 Proxy Authentication Required)", e.addr)
}
