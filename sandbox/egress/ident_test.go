// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/proxy"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
)

// httpVia returns a client whose proxy URL carries id as the user
// name, as the proxy variables of egress.Env do.
func httpVia(t *testing.T, srv *egresstest.Servers, dial func(context.Context, string, string) (net.Conn, error), id string) *http.Client {
	u, _ := url.Parse("http://" + id + ":x@proxy.invalid:3128")
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(u), DialContext: dial,
		TLSClientConfig: &tls.Config{RootCAs: caPool(t, srv)}}}
}

// TestCommandIdentifiers: concurrent commands refused at the same time
// are told apart by the identifier in their proxy credentials, over
// HTTP, CONNECT and SOCKS5; the explanation of each names its own host.
func TestCommandIdentifiers(t *testing.T) {
	srv, dial, decisions := startProxy(t)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The noise: another command refusing another name, all along.
			c := httpVia(t, srv, dial, "noise")
			if resp, err := c.Get("http://" + egresstest.Refused + "/n" + strconv.Itoa(i)); err == nil {
				resp.Body.Close()
			}
		}()
	}
	c := httpVia(t, srv, dial, "cmdA")
	if resp, err := c.Get("http://" + egresstest.Metadata + "/"); err == nil {
		resp.Body.Close()
	}
	if _, err := c.Get("https://" + egresstest.Refused + ":" + strconv.Itoa(srv.HTTPS) + "/"); err == nil {
		t.Error("CONNECT to a refused name succeeded")
	}
	sd, err := proxy.SOCKS5("unix", "ignored", &proxy.Auth{User: "cmdB", Password: "x"}, dialerFunc(dial))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := sd.(proxy.ContextDialer).DialContext(context.Background(), "tcp", egresstest.Loopback+":443"); err == nil {
		c.Close()
		t.Error("SOCKS5 to loopback.test succeeded")
	}
	// Positive control: an allowed connection over SOCKS5 is recorded
	// under its command too, with the address dialled.
	if c, err := sd.(proxy.ContextDialer).DialContext(context.Background(), "tcp", egresstest.Allowed+":"+strconv.Itoa(srv.HTTP)); err != nil {
		t.Errorf("SOCKS5 to the allowed name: %v", err)
	} else {
		c.Close()
	}
	wg.Wait()

	ds := decisions()
	a := egress.ActivityOf(ds, "cmdA", start)
	lines := egress.Explain(a, "curl http://metadata.test/", 3)
	if len(lines) != 2 || !strings.Contains(lines[0], egresstest.Metadata+":80") || !strings.Contains(lines[1], egresstest.Refused) ||
		strings.Contains(strings.Join(lines, "\n"), "/n") {
		t.Errorf("cmdA's lines = %q, want metadata.test then refused.test, nothing of the noise", lines)
	}
	b := egress.ActivityOf(ds, "cmdB", start)
	var allowed, refused int
	for _, d := range b.Own {
		switch {
		case d.Result == egress.ResultAllow && d.Via == "socks5" && d.Addr == "127.0.0.1:"+strconv.Itoa(srv.HTTP):
			allowed++
		case d.Refused() && d.Host == egresstest.Loopback:
			refused++
		default:
			t.Errorf("cmdB: unexpected %+v", d)
		}
	}
	if allowed != 1 || refused != 1 {
		t.Errorf("cmdB: %d allowed, %d refused, want 1 and 1: %+v", allowed, refused, b.Own)
	}
	if n := len(egress.ActivityOf(ds, "noise", start).Own); n != 20 {
		t.Errorf("noise: %d records, want one per connection (20)", n)
	}
}

// TestResultsAndAdvice: a dial that fails is "failed" (with the
// address tried), not "allow"; a name that does not resolve is "failed"
// and not told to add itself to allow_domains; a malformed SOCKS5 name
// (a NUL byte) is printed quoted and gets no advice.
func TestResultsAndAdvice(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there any more
	open := egresstest.Start(t, t.TempDir()).HTTP
	r, err := egress.Compile(egress.Config{AllowDomains: []string{"closed.test", "gone.test", "open.test"},
		AllowAddresses: []string{"127.0.0.1:" + strconv.Itoa(closed), "127.0.0.1:" + strconv.Itoa(open)}})
	if err != nil {
		t.Fatal(err)
	}
	p := egress.New(r)
	p.Resolver = egresstest.Resolver{"closed.test": netip.MustParseAddr("127.0.0.1"), "open.test": netip.MustParseAddr("127.0.0.1")}
	dial, decisions := serve(t, p)
	sd, _ := proxy.SOCKS5("unix", "ignored", &proxy.Auth{User: "c1", Password: "x"}, dialerFunc(dial))
	cd := sd.(proxy.ContextDialer)
	for _, target := range []string{"closed.test:" + strconv.Itoa(closed), "gone.test:443"} {
		if c, err := cd.DialContext(context.Background(), "tcp", target); err == nil {
			c.Close()
			t.Errorf("%s connected", target)
		}
	}
	if c, err := cd.DialContext(context.Background(), "tcp", "open.test:"+strconv.Itoa(open)); err != nil {
		t.Errorf("positive control open.test: %v", err)
	} else {
		c.Close()
	}
	rawSOCKS(t, dial, "bad\x00name.test", 443)

	want := map[string]string{"closed.test": egress.ResultFailed, "gone.test": egress.ResultFailed, "open.test": egress.ResultAllow}
	for _, d := range decisions() {
		if d.Command == "" {
			l := egress.Explain(egress.Activity{Own: []egress.Decision{d}}, "", 1)
			if len(l) != 1 || !strings.Contains(l[0], `"bad\x00name.test"`) || strings.Contains(l[0], "allow_domains +=") ||
				!strings.Contains(l[0], "no setting allows it") {
				t.Errorf("NUL name: %q", l)
			}
			continue
		}
		if d.Result != want[d.Host] {
			t.Errorf("%s: result %q, want %q (%+v)", d.Host, d.Result, want[d.Host], d)
		}
		if d.Host != "gone.test" && !strings.HasPrefix(d.Addr, "127.0.0.1:") {
			t.Errorf("%s: no dialled address recorded: %+v", d.Host, d)
		}
		if d.Host == "gone.test" {
			if l := egress.Explain(egress.Activity{Own: []egress.Decision{d}}, "", 1); len(l) != 1 || strings.Contains(l[0], "allow_domains") {
				t.Errorf("gone.test: %q, want no allow_domains advice", l)
			}
		}
		delete(want, d.Host)
	}
	if len(want) != 0 {
		t.Errorf("not recorded: %v", want)
	}
}

// rawSOCKS sends a SOCKS5 CONNECT for a domain name byte for byte (the
// client library refuses a NUL).
func rawSOCKS(t *testing.T, dial func(context.Context, string, string) (net.Conn, error), host string, port int) {
	c, err := dial(context.Background(), "unix", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	req := []byte{5, 1, 0}
	req = append(req, 5, 1, 0, 3, byte(len(host)))
	req = append(req, host...)
	req = append(req, byte(port>>8), byte(port))
	c.Write(req)
	io.ReadFull(bufio.NewReader(c), make([]byte, 12))
}

// TestExplainFailed: the lines for a failed connection and a name that
// does not resolve give no policy advice; a port refusal names
// allow_ports; an address refusal names the address.
func TestExplainFailed(t *testing.T) {
	for _, tc := range []struct {
		d         egress.Decision
		want, not string
	}{
		{egress.Decision{Host: "gone.test", Port: 443, Result: egress.ResultFailed, Reason: "the name is allowed but does not resolve on this host (no such host)"},
			"failed: the name is allowed but does not resolve", "allow_domains"},
		{egress.Decision{Host: "x.test", Port: 443, Result: egress.ResultFailed, Reason: "dial failed: connection refused"},
			"x.test:443 failed: dial failed", "to allow"},
		{egress.Decision{Host: "x.test", Port: 22, Result: egress.ResultRefused, Key: "sandbox.allow_ports", Reason: "port 22 is not in sandbox.allow_ports"},
			"sandbox.allow_ports += [22]", "allow_domains"},
		{egress.Decision{Host: "x.test", Port: 80, Result: egress.ResultRefused, Key: "sandbox.allow_addresses", Reason: "it resolves to 10.0.0.1, a private address"},
			`sandbox.allow_addresses += ["10.0.0.1:80"]`, "allow_domains"},
	} {
		l := egress.Explain(egress.Activity{Own: []egress.Decision{tc.d}}, "", 1)
		if len(l) != 1 || !strings.Contains(l[0], tc.want) || strings.Contains(l[0], tc.not) {
			t.Errorf("%+v: %q, want %q without %q", tc.d, l, tc.want, tc.not)
		}
	}
}
