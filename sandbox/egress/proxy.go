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

// The results of one connection.
const (
	ResultAllow   = "allow"   // allowed and connected
	ResultRefused = "refused" // refused by the rules
	ResultFailed  = "failed"  // allowed, but the name did not resolve or the dial failed
)

// Decision is the record of one connection through the proxy, for the
// session's egress.jsonl, the audit log and the explanation after a
// failed command.
type Decision struct {
	Time time.Time `json:"time"`
	// Command is the identifier of the command that connected, from the
	// credentials of its proxy variables ([Env]); "" when the client
	// sent none (a tool that drops proxy credentials, or a proxy
	// variable the command set itself).
	Command string `json:"command,omitempty"`
	Host    string `json:"host"`
	Port    uint16 `json:"port"`
	Result  string `json:"result"`         // ResultAllow, ResultRefused or ResultFailed
	Addr    string `json:"addr,omitempty"` // the address dialled
	Key     string `json:"key,omitempty"`  // for a refusal: the policy key that would allow it
	Reason  string `json:"reason,omitempty"`
	Via     string `json:"via"` // connect, http or socks5
}

// Refused reports whether the rules refused the connection.
func (d Decision) Refused() bool { return d.Result == ResultRefused }

// Proxy is the host side of network = "allow". One Unix socket serves
// both protocols: a connection that starts with byte 5 speaks SOCKS5, any
// other HTTP (CONNECT or a plain request with an absolute URL).
type Proxy struct {
	Rules *Rules
	// Resolver defaults to net.DefaultResolver.
	Resolver Resolver
	// Record, when set, is called for every connection, before the
	// client hears of it (so that a refusal is on record by the time the
	// command fails). It must be safe for concurrent use.
	Record func(Decision)
	// DialTimeout bounds one dial; default 15s.
	DialTimeout time.Duration
	// Upstream, when set, is the proxy every allowed connection goes
	// through (CONNECT), see upstream.go.
	Upstream *Upstream
	// OnBridge, when set, hears whether the sandbox's bridge is up (its
	// presence connection, presence.go); down is reported after a grace
	// period, so a restart in progress is not reported.
	OnBridge func(up bool)
	// LocalDirect, when set, dials a target whose every vetted address
	// is named by allow_addresses directly, not through Upstream: the
	// agent ring's provider on this host or its network and its
	// forwarded host ports, which a corporate proxy cannot reach.
	LocalDirect bool

	bridgeMu    sync.Mutex
	bridges     int
	bridgeGen   int
	bridgeGrace time.Duration // 0: defaultBridgeGrace (tests shorten it)

	once      sync.Once
	hosts     hostCache
	transport *http.Transport
	server    *http.Server
	conns     chan net.Conn
	gate      *gate
}

// New returns a proxy over r.
func New(r *Rules) *Proxy { return &Proxy{Rules: r} }

func (p *Proxy) init() {
	p.once.Do(func() {
		if p.Resolver == nil {
			p.Resolver = net.DefaultResolver
		}
		if p.DialTimeout == 0 {
			p.DialTimeout = 15 * time.Second
		}
		p.transport = &http.Transport{
			// Never the host's own proxy settings: the target is vetted
			// here and dialled directly (or through Upstream).
			Proxy: nil,
			DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
				return p.dialChecked(ctx, addr, "http")
			},
			// One connection per request: a pooled connection would
			// carry the next command's request unrecorded and under
			// the first command's name.
			DisableKeepAlives: true,
		}
		p.conns = make(chan net.Conn)
		p.gate = newGate(descriptorLimit())
		// Slow clients are cut: 30s for the request's header (and for
		// the first byte, serveConn), 60s idle between the requests of
		// a kept-alive client connection; a tunnel (CONNECT) is the
		// client's own and has no bound.
		p.server = &http.Server{Handler: http.HandlerFunc(p.serveHTTP), ReadHeaderTimeout: 30 * time.Second,
			IdleTimeout: 60 * time.Second, ErrorLog: discardLog}
		go p.server.Serve(chanListener{p.conns})
	})
}

// Serve accepts connections on l until it is closed. An error of
// accept (EMFILE, ENFILE, ENOBUFS: the process is out of descriptors or
// memory) is waited out with a growing pause, as the judge's loop and
// the bridge's do, never taken as the end: returning left the socket
// taking connections nobody served, and every later request of the
// session failed (issue #27). Each connection passes the gate (gate.go)
// first.
func (p *Proxy) Serve(l net.Listener) error {
	p.init()
	return acceptLoop(l, func(c net.Conn) {
		client := clientOf(c)
		if why := p.gate.take(client); why != "" {
			p.turnAway(c, client, why)
			return
		}
		gc := &gatedConn{Conn: c, release: func() { p.gate.release(client) }}
		go p.serveConn(gc)
	})
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
		return name, nil, p.specialLiteral(name, port, ref)
	}
	if !p.Rules.portOK(port) && !p.Rules.portNamed(port) {
		return name, nil, portRefusal(name, port)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(name); err == nil {
		addrs = []netip.Addr{a}
	} else {
		// Only an allowed name gets this far: a refused one is never
		// looked up, so DNS cannot carry data out either.
		found, err := p.Resolver.LookupNetIP(ctx, "ip", name)
		if err != nil || len(found) == 0 {
			if err == nil {
				err = errors.New("no address")
			}
			return name, nil, &refusal{Host: name, Port: port, Failed: true,
				Reason: fmt.Sprintf("the name is allowed but does not resolve on this host (%v)", err)}
		}
		addrs = found
	}
	var ok []netip.Addr
	var last *refusal
	hosts := p.hosts.get()
	for _, a := range addrs {
		a = a.Unmap()
		switch s := classify(a, hosts); {
		case p.Rules.addrAllowed(a, port):
			ok = append(ok, a)
		case s != "":
			last = &refusal{Host: name, Port: port, Key: keyAllowAddresses, Reason: fmt.Sprintf("it resolves to %s, %s", a, s)}
		case !p.Rules.portOK(port):
			last = portRefusal(name, port)
		default:
			ok = append(ok, a)
		}
	}
	if len(ok) == 0 {
		return name, nil, last
	}
	return name, ok, nil
}

// specialLiteral turns the refusal of an IP literal that allow_domains
// does not name into one that says what the address is when it is
// special: allow_domains alone would not let it through (the address
// check refuses it next), so the advice names allow_addresses first.
func (p *Proxy) specialLiteral(name string, port uint16, ref *refusal) *refusal {
	a, err := netip.ParseAddr(name)
	if err != nil || ref.Key != keyAllowDomains {
		return ref
	}
	s := classify(a, p.hosts.get())
	if s == "" || p.Rules.addrAllowed(a, port) {
		return ref
	}
	return &refusal{Host: name, Port: port, Key: keyAllowAddresses,
		Reason: fmt.Sprintf("it is %s, %s", name, s)}
}

// dialChecked vets "host:port" and dials the vetted addresses (or the
// upstream proxy), recording the connection under the command named in
// ctx.
func (p *Proxy) dialChecked(ctx context.Context, hostport, via string) (net.Conn, error) {
	d := Decision{Command: commandOf(ctx), Via: via}
	host, ps, err := net.SplitHostPort(hostport)
	port, perr := strconv.ParseUint(ps, 10, 16)
	if err != nil || perr != nil || port == 0 {
		d.Host, d.Result, d.Reason = printable(hostport), ResultRefused, "not a host:port target"
		p.record(d)
		return nil, &refusal{Host: d.Host, Reason: d.Reason}
	}
	name, addrs, ref := p.vet(ctx, host, uint16(port))
	d.Host, d.Port = name, uint16(port)
	if ref != nil && name == "" {
		d.Host = ref.Host
	}
	if ref != nil && ref.Failed && p.Upstream != nil && p.Rules.portOK(uint16(port)) {
		// Not resolvable here: the upstream proxy resolves it (only the
		// name rules and the ports were vetted; upstream.go).
		ref = nil
	}
	if ref != nil {
		d.Result, d.Key, d.Reason = ResultRefused, ref.Key, ref.Reason
		if ref.Failed {
			d.Result = ResultFailed
		}
		p.record(d)
		return nil, ref
	}
	c, addr, err := p.dial(ctx, name, addrs, uint16(port), p.LocalDirect && p.allNamed(addrs, uint16(port)))
	d.Addr = addr
	if err != nil {
		d.Result, d.Reason = ResultFailed, "dial failed: "+err.Error()
		var auth *upstreamAuthError
		if errors.As(err, &auth) {
			d.Key, d.Reason = keyUpstreamProxy, auth.Error()
		}
		p.record(d)
		return nil, err
	}
	d.Result = ResultAllow
	p.record(d)
	return c, nil
}

// dial connects to the first vetted address that answers, or, with an
// upstream proxy, tunnels to name through it (name resolved upstream
// when it did not resolve here; addrs then is empty).
func (p *Proxy) dial(ctx context.Context, name string, addrs []netip.Addr, port uint16, direct bool) (net.Conn, string, error) {
	if p.Upstream != nil && !direct {
		c, err := p.Upstream.connect(ctx, HostPort(name, port), p.DialTimeout)
		return c, "upstream " + p.Upstream.addr, err
	}
	dl := net.Dialer{Timeout: p.DialTimeout}
	var last error
	tried := ""
	for _, a := range addrs {
		tried = netip.AddrPortFrom(a, port).String()
		c, err := dl.DialContext(ctx, "tcp", tried)
		if err == nil {
			return c, tried, nil
		}
		last = err
	}
	return nil, tried, last
}

// allNamed reports whether addrs are some, each named by allow_addresses.
func (p *Proxy) allNamed(addrs []netip.Addr, port uint16) bool {
	for _, a := range addrs {
		if !p.Rules.addrAllowed(a, port) {
			return false
		}
	}
	return len(addrs) > 0
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
