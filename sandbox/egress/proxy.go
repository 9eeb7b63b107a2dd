// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// Resolver looks names up; *net.Resolver is one, tests map test names to
// local servers.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Decision is one verdict of the proxy, for the audit log and the
// explanation after a failed command.
type Decision struct {
	Time    time.Time `json:"time"`
	Host    string    `json:"host"`
	Port    uint16    `json:"port"`
	Allowed bool      `json:"allowed"`
	Addr    string    `json:"addr,omitempty"` // the address dialled
	Key     string    `json:"key,omitempty"`  // for a refusal: the policy key
	Reason  string    `json:"reason,omitempty"`
	Via     string    `json:"via"` // connect, http or socks5
}

// Proxy is the host side of network = "allow". One Unix socket serves
// both protocols: a connection that starts with byte 5 speaks SOCKS5, any
// other HTTP (CONNECT or a plain request with an absolute URL).
type Proxy struct {
	Rules *Rules
	// Resolver defaults to net.DefaultResolver.
	Resolver Resolver
	// Record, when set, is called for every decision, before the client
	// hears of it (so that a refusal is on record by the time the command
	// fails). It must be safe for concurrent use.
	Record func(Decision)
	// DialTimeout bounds one dial; default 15s.
	DialTimeout time.Duration

	once      sync.Once
	own       map[netip.Addr]bool
	transport *http.Transport
	server    *http.Server
	conns     chan net.Conn
}

// New returns a proxy over r with the host's own addresses looked up now.
func New(r *Rules) *Proxy { return &Proxy{Rules: r} }

func (p *Proxy) init() {
	p.once.Do(func() {
		p.own = map[netip.Addr]bool{}
		if as, err := net.InterfaceAddrs(); err == nil {
			for _, a := range as {
				if pn, err := netip.ParsePrefix(a.String()); err == nil {
					p.own[pn.Addr().Unmap()] = true
				}
			}
		}
		if p.Resolver == nil {
			p.Resolver = net.DefaultResolver
		}
		if p.DialTimeout == 0 {
			p.DialTimeout = 15 * time.Second
		}
		p.transport = &http.Transport{
			// Never the host's own proxy settings: the target is vetted
			// here and dialled directly.
			Proxy: nil,
			DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
				return p.dialChecked(ctx, addr, "http")
			},
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     30 * time.Second,
		}
		p.conns = make(chan net.Conn)
		p.server = &http.Server{Handler: http.HandlerFunc(p.serveHTTP), ReadHeaderTimeout: 30 * time.Second,
			ErrorLog: discardLog}
		go p.server.Serve(chanListener{p.conns})
	})
}

// Serve accepts connections on l until it is closed.
func (p *Proxy) Serve(l net.Listener) error {
	p.init()
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("egress proxy: accept: %w", err)
		}
		go p.serveConn(c)
	}
}

// serveConn tells SOCKS5 from HTTP by the first byte.
func (p *Proxy) serveConn(c net.Conn) {
	br := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	b, err := br.Peek(1)
	if err != nil {
		c.Close()
		return
	}
	c.SetReadDeadline(time.Time{})
	pc := &peekedConn{Conn: c, r: br}
	if b[0] == socksVersion {
		p.serveSOCKS(pc)
		return
	}
	p.conns <- pc
}

// vet decides on host:port and returns the addresses that may be dialled,
// in the resolver's order.
func (p *Proxy) vet(ctx context.Context, host string, port uint16) (string, []netip.Addr, *refusal) {
	name, ref := p.Rules.checkName(host, port)
	if ref != nil {
		return name, nil, ref
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(name); err == nil {
		addrs = []netip.Addr{a}
	} else {
		// Only an allowed name gets this far: a refused one is never
		// looked up, so DNS cannot carry data out either.
		found, err := p.Resolver.LookupNetIP(ctx, "ip", name)
		if err != nil || len(found) == 0 {
			return name, nil, &refusal{Host: name, Port: port, Key: keyAllowDomains, Reason: fmt.Sprintf("the name does not resolve (%v)", err)}
		}
		addrs = found
	}
	var ok []netip.Addr
	why := ""
	for _, a := range addrs {
		a = a.Unmap()
		if s := special(a, p.own); s != "" && !p.Rules.addrAllowed(a, port) {
			why = fmt.Sprintf("it resolves to %s, a %s address", a, s)
			continue
		}
		ok = append(ok, a)
	}
	if len(ok) == 0 {
		return name, nil, &refusal{Host: name, Port: port, Key: keyAllowAddresses, Reason: why}
	}
	return name, ok, nil
}

// dialChecked vets "host:port" and dials the vetted addresses.
func (p *Proxy) dialChecked(ctx context.Context, hostport, via string) (net.Conn, error) {
	host, ps, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, fmt.Errorf("egress proxy: target %q: %w", hostport, err)
	}
	port, err := strconv.ParseUint(ps, 10, 16)
	if err != nil || port == 0 {
		return nil, fmt.Errorf("egress proxy: target %q: bad port", hostport)
	}
	name, addrs, ref := p.vet(ctx, host, uint16(port))
	if ref != nil {
		p.record(Decision{Host: name, Port: uint16(port), Key: ref.Key, Reason: ref.Reason, Via: via})
		return nil, ref
	}
	d := net.Dialer{Timeout: p.DialTimeout}
	var last error
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a, uint16(port)).String()
		c, err := d.DialContext(ctx, "tcp", ap)
		if err == nil {
			p.record(Decision{Host: name, Port: uint16(port), Allowed: true, Addr: ap, Via: via})
			return c, nil
		}
		last = err
	}
	p.record(Decision{Host: name, Port: uint16(port), Allowed: true, Reason: "dial failed: " + last.Error(), Via: via})
	return nil, last
}

func (p *Proxy) record(d Decision) {
	if p.Record != nil {
		d.Time = time.Now()
		p.Record(d)
	}
}

// pipe copies both ways until both directions are done, half-closing
// each side's write end when the other side's reader ends.
func pipe(a, b net.Conn) {
	var wg sync.WaitGroup
	wg.Add(2)
	cp := func(dst, src net.Conn) {
		defer wg.Done()
		io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		} else {
			dst.Close()
		}
	}
	go cp(a, b)
	go cp(b, a)
	wg.Wait()
	a.Close()
	b.Close()
}

// peekedConn is a connection whose first bytes sit in a bufio.Reader.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

func (c *peekedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Conn.Close()
}

// chanListener feeds connections the sniffer classified as HTTP to the
// http.Server.
type chanListener struct{ c chan net.Conn }

func (l chanListener) Accept() (net.Conn, error) { return <-l.c, nil }
func (l chanListener) Close() error              { return nil }
func (l chanListener) Addr() net.Addr            { return &net.UnixAddr{Name: "egress", Net: "unix"} }
