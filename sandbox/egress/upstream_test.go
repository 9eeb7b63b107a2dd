// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
)

// fakeUpstream is a corporate proxy on 127.0.0.1: it answers CONNECT
// for the names in routes (its own DNS) and records every target and
// Proxy-Authorization it saw.
type fakeUpstream struct {
	mu      sync.Mutex
	targets []string
	auth    []string
}

func startUpstream(t *testing.T, routes map[string]string) (*fakeUpstream, string) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	u := &fakeUpstream{}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go u.serve(c, routes)
		}
	}()
	return u, l.Addr().String()
}

func (u *fakeUpstream) serve(c net.Conn, routes map[string]string) {
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil || req.Method != http.MethodConnect {
		return
	}
	u.mu.Lock()
	u.targets = append(u.targets, req.Host)
	u.auth = append(u.auth, req.Header.Get("Proxy-Authorization"))
	u.mu.Unlock()
	host, port, _ := net.SplitHostPort(req.Host)
	dst, ok := routes[host]
	if !ok {
		io.WriteString(c, "HTTP/1.1 403 Forbidden\r\n\r\n")
		return
	}
	up, err := net.Dial("tcp", net.JoinHostPort(dst, port))
	if err != nil {
		io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\n\r\n")
		return
	}
	defer up.Close()
	io.WriteString(c, "HTTP/1.1 200 OK\r\n\r\n")
	go io.Copy(up, br)
	io.Copy(c, up)
}

// TestUpstreamProxy: allowed connections are chained through the
// upstream proxy with CONNECT (plain HTTP too), with its credentials;
// refused names and names that resolve here to a special address never
// reach it; a name that does not resolve here is left to the upstream.
func TestUpstreamProxy(t *testing.T) {
	srv := egresstest.Start(t, t.TempDir())
	fu, addr := startUpstream(t, map[string]string{egresstest.Allowed: "127.0.0.1", "corp-only.test": "127.0.0.1"})
	r, err := egress.Compile(egress.Config{AllowDomains: []string{egresstest.Allowed, egresstest.Metadata, "corp-only.test"},
		AllowAddresses: srv.AllowAddresses(), AllowPorts: []int{srv.HTTP}})
	if err != nil {
		t.Fatal(err)
	}
	p := egress.New(r)
	p.Resolver = egresstest.NewResolver() // corp-only.test does not resolve here
	if p.Upstream, err = egress.ParseUpstream("http://alice:s3cret@" + addr); err != nil {
		t.Fatal(err)
	}
	dial, decisions := serve(t, p)
	c := httpVia(t, srv, dial, "cmd1")
	for _, u := range []string{
		"http://" + egresstest.Allowed + ":" + strconv.Itoa(srv.HTTP) + "/",
		"https://" + egresstest.Allowed + ":" + strconv.Itoa(srv.HTTPS) + "/",
		"http://corp-only.test:" + strconv.Itoa(srv.HTTP) + "/",
	} {
		resp, err := c.Get(u)
		if err != nil {
			t.Errorf("%s through the upstream: %v", u, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != egresstest.Body {
			t.Errorf("%s: %d %q", u, resp.StatusCode, b)
		}
	}
	for _, u := range []string{"http://" + egresstest.Refused + "/", "http://" + egresstest.Metadata + "/"} {
		if resp, err := c.Get(u); err == nil {
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s: %d, want 403", u, resp.StatusCode)
			}
			resp.Body.Close()
		}
	}
	fu.mu.Lock()
	defer fu.mu.Unlock()
	if len(fu.targets) != 3 || strings.Contains(strings.Join(fu.targets, " "), egresstest.Refused) ||
		strings.Contains(strings.Join(fu.targets, " "), egresstest.Metadata) {
		t.Errorf("upstream saw %q, want the three allowed targets only", fu.targets)
	}
	for _, a := range fu.auth {
		if a != "Basic YWxpY2U6czNjcmV0" {
			t.Errorf("upstream credentials %q", a)
		}
	}
	for _, d := range decisions() {
		if d.Result == egress.ResultAllow && d.Addr != "upstream "+addr {
			t.Errorf("allowed connection not recorded as through the upstream: %+v", d)
		}
	}
}

// TestUpstreamFromEnv: the host's HTTPS_PROXY is the upstream, except
// our own bridge's address; a malformed one is an error.
func TestUpstreamFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string // "" = none, "error"
	}{
		{map[string]string{}, ""},
		{map[string]string{"HTTPS_PROXY": "http://proxy.corp.test:8080"}, "http://proxy.corp.test:8080"},
		{map[string]string{"https_proxy": "http://u:p@10.0.0.1:3128"}, "http://10.0.0.1:3128"},
		{map[string]string{"HTTPS_PROXY": "http://cmd:x@127.0.0.1:3128"}, ""},
		{map[string]string{"HTTPS_PROXY": "socks5://proxy.corp.test:1080"}, "error"},
	} {
		up, err := egress.UpstreamFromEnv(func(k string) string { return tc.env[k] })
		got := ""
		switch {
		case err != nil:
			got = "error"
			if strings.Contains(err.Error(), ":p@") {
				t.Errorf("error shows the password: %v", err)
			}
		case up != nil:
			got = up.String()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestRedact: the frozen policy keeps the upstream proxy without its
// password (#27).
func TestRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://u:pw@corp:8080": "http://u@corp:8080",
		"http://u@corp:8080":    "http://u@corp:8080",
		"http://corp:8080":      "http://corp:8080",
		"none":                  "none",
		"":                      "",
	} {
		if got := egress.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
