// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/net/proxy"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// benchResolver maps the benchmark's one name to loopback.
type benchResolver struct{}

func (benchResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// egressBench reports the cost per request of network = "allow": a
// fresh connection per request (the worst case: no keep-alive) to a
// local server, directly and through the path a sandboxed command takes
// (TCP to the bridge, the Unix socket, the host proxy, the vetted dial),
// for a plain HTTP request, a CONNECT tunnel and SOCKS5. The network
// namespace itself adds nothing per request; the bridge runs in this
// process here rather than in a sandbox.
func egressBench(bin, ws, home string, n int) error {
	if err := egressStart(bin, ws, home, n); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "lite-sandbox-bench-egress-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srvL, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer srvL.Close()
	go http.Serve(srvL, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") }))
	port := srvL.Addr().(*net.TCPAddr).Port

	rules, err := egress.NewRules([]string{"bench.test"}, nil, []string{"127.0.0.1:" + strconv.Itoa(port)})
	if err != nil {
		return err
	}
	sock := filepath.Join(dir, "egress.sock")
	pl, err := egress.Listen(sock)
	if err != nil {
		return err
	}
	defer pl.Close()
	p := egress.New(rules)
	p.Resolver = benchResolver{}
	go p.Serve(pl)
	bl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer bl.Close()
	go egress.Bridge(bl, sock)
	bridge := bl.Addr().String()
	target := "bench.test:" + strconv.Itoa(port)

	return egressReport(n, []egressCase{
		{"direct", func() error { return get("127.0.0.1:"+strconv.Itoa(port), "/") }},
		{"proxy, plain HTTP", func() error { return get(bridge, "http://"+target+"/") }},
		{"proxy, CONNECT", func() error { return connectGet(bridge, target) }},
		{"proxy, SOCKS5", func() error { return socksGet(bridge, target) }},
	})
}

// egressCase is one way to send a request, measured by egressReport.
type egressCase struct {
	name string
	f    func() error
}

// egressReport runs every case n times and prints its median and 95th
// percentile, and for all but the first (direct) case the overhead of its
// median over the first's.
func egressReport(n int, cases []egressCase) error {
	fmt.Printf("\nnetwork = \"allow\": one request on a fresh connection to a local server (%d runs)\n", n)
	var base time.Duration
	for _, s := range cases {
		var d []time.Duration
		for range n {
			t0 := time.Now()
			if err := s.f(); err != nil {
				return fmt.Errorf("egress %s: %w", s.name, err)
			}
			d = append(d, time.Since(t0))
		}
		med := pct(d, 50)
		if base == 0 {
			base = med
			fmt.Printf("  %-20s median %s  p95 %s\n", s.name, ms(med), ms(pct(d, 95)))
			continue
		}
		fmt.Printf("  %-20s median %s  p95 %s  overhead %s per request\n", s.name, ms(med), ms(pct(d, 95)), ms(med-base))
	}
	return nil
}

// connectGet sends one GET to target through a CONNECT tunnel of the
// HTTP proxy at bridge.
func connectGet(bridge, target string) error {
	c, err := net.Dial("tcp", bridge)
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		return fmt.Errorf("CONNECT: %v %v", resp, err)
	}
	return roundTrip(c, br, "/")
}

// socksGet sends one GET to target through the SOCKS5 proxy at bridge.
func socksGet(bridge, target string) error {
	d, err := proxy.SOCKS5("tcp", bridge, nil, proxy.Direct)
	if err != nil {
		return err
	}
	c, err := d.Dial("tcp", target)
	if err != nil {
		return err
	}
	defer c.Close()
	return roundTrip(c, bufio.NewReader(c), "/")
}

// get sends one GET for uri over a new connection to addr.
func get(addr, uri string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return roundTrip(c, bufio.NewReader(c), uri)
}

func roundTrip(c net.Conn, br *bufio.Reader, uri string) error {
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: bench.test\r\nConnection: close\r\n\r\n", uri)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// egressStart reports what network = "allow" adds to a per-command
// sandbox: the proxy in the shim, the bridge forked by __confine.
func egressStart(bin, ws, home string, n int) error {
	dir, err := os.MkdirTemp("", "lite-sandbox-bench-egress-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	n = max(n/4, 10)
	fmt.Printf("\nnetwork mode, per command (shim, fresh bwrap; %d runs)\n", n)
	var off time.Duration
	for _, mode := range []string{"off", "allow"} {
		cfg := filepath.Join(dir, mode+".toml")
		if err := os.WriteFile(cfg, []byte("[sandbox]\nnetwork = \""+mode+"\"\n"), 0o644); err != nil {
			return err
		}
		var d []time.Duration
		for i := range n + 3 {
			c := exec.Command(bin, "shim", "-c", "true")
			c.Dir = ws
			c.Env = append(os.Environ(), "LITE_SANDBOX_WORKSPACE="+ws, "LITE_SANDBOX_MODE=on", "HOME="+home,
				"LITE_SANDBOX_CONFIG="+cfg, "LITE_SANDBOX_NO_AUDIT=1")
			t0 := time.Now()
			if out, err := c.CombinedOutput(); err != nil {
				return fmt.Errorf("network %s: %w: %s", mode, err, out)
			}
			if i >= 3 {
				d = append(d, time.Since(t0))
			}
		}
		med := pct(d, 50)
		if mode == "off" {
			off = med
			fmt.Printf("  %-20s median %s  p95 %s\n", "network = off", ms(med), ms(pct(d, 95)))
			continue
		}
		fmt.Printf("  %-20s median %s  p95 %s  added %s per command\n", "network = allow", ms(med), ms(pct(d, 95)), ms(med-off))
	}
	return nil
}
