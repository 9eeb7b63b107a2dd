// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"golang.org/x/net/proxy"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
)

// startProxy serves a proxy over the test servers on a Unix socket and
// returns a dialer for it and the recorded decisions.
func startProxy(t *testing.T) (*egresstest.Servers, func(context.Context, string, string) (net.Conn, error), func() []egress.Decision) {
	dir := t.TempDir()
	srv := egresstest.Start(t, dir)
	p := egress.New(srv.Rules(t))
	p.Resolver = egresstest.NewResolver()
	dial, decisions := serve(t, p)
	return srv, dial, decisions
}

// serve runs p on a Unix socket and returns a dialer for it and the
// recorded decisions.
func serve(t *testing.T, p *egress.Proxy) (func(context.Context, string, string) (net.Conn, error), func() []egress.Decision) {
	sock := filepath.Join(t.TempDir(), "p.sock")
	l, err := egress.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var ds []egress.Decision
	p.Record = func(d egress.Decision) { mu.Lock(); ds = append(ds, d); mu.Unlock() }
	go p.Serve(l)
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}
	return dial, func() []egress.Decision { mu.Lock(); defer mu.Unlock(); return append([]egress.Decision(nil), ds...) }
}

func caPool(t *testing.T, srv *egresstest.Servers) *x509.CertPool {
	b, err := os.ReadFile(srv.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(b)
	return pool
}

func TestProxyHTTPAndConnect(t *testing.T) {
	srv, dial, decisions := startProxy(t)
	proxyURL, _ := url.Parse("http://proxy.invalid:3128")
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL), DialContext: dial,
		TLSClientConfig: &tls.Config{RootCAs: caPool(t, srv)}}}
	get := func(u string) (int, string, http.Header) {
		t.Helper()
		resp, err := c.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	hp := func(host string, port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }
	if st, body, _ := get("http://" + hp(egresstest.Allowed, srv.HTTP) + "/"); st != 200 || body != egresstest.Body {
		t.Errorf("plain HTTP: %d %q", st, body)
	}
	if st, body, _ := get("https://" + hp(egresstest.Allowed, srv.HTTPS) + "/"); st != 200 || body != egresstest.Body {
		t.Errorf("CONNECT: %d %q", st, body)
	}
	st, body, h := get("http://" + hp(egresstest.Refused, srv.HTTP) + "/")
	if st != http.StatusForbidden || h.Get(egress.ErrorHeader) == "" {
		t.Errorf("refused name: %d %q", st, body)
	}
	if _, err := c.Get("https://" + hp(egresstest.Refused, srv.HTTPS) + "/"); err == nil {
		t.Error("CONNECT to a refused name succeeded")
	}
	if st, _, _ := get("http://" + hp("127.0.0.1", srv.HTTP) + "/"); st != http.StatusForbidden {
		t.Errorf("IP literal: %d", st)
	}
	refused := 0
	for _, d := range decisions() {
		if d.Refused() {
			refused++
		}
	}
	if refused != 3 {
		t.Errorf("recorded %d refusals, want 3: %+v", refused, decisions())
	}
}

func TestProxySOCKS5(t *testing.T) {
	srv, dial, _ := startProxy(t)
	d, err := proxy.SOCKS5("unix", "ignored", nil, dialerFunc(dial))
	if err != nil {
		t.Fatal(err)
	}
	cd := d.(proxy.ContextDialer)
	c := &http.Client{Transport: &http.Transport{DialContext: cd.DialContext}}
	resp, err := c.Get("http://" + net.JoinHostPort(egresstest.Allowed, strconv.Itoa(srv.HTTP)) + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != egresstest.Body {
		t.Errorf("body %q", b)
	}
	for _, target := range []string{egresstest.Refused + ":80", egresstest.Metadata + ":80", "127.0.0.1:" + strconv.Itoa(srv.HTTP)} {
		if c, err := cd.DialContext(context.Background(), "tcp", target); err == nil {
			c.Close()
			t.Errorf("SOCKS5 to %s succeeded", target)
		}
	}
}

type dialerFunc func(context.Context, string, string) (net.Conn, error)

func (f dialerFunc) Dial(n, a string) (net.Conn, error) { return f(context.Background(), n, a) }
func (f dialerFunc) DialContext(ctx context.Context, n, a string) (net.Conn, error) {
	return f(ctx, n, a)
}
