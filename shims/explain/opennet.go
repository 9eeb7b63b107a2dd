// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"cmp"
	"context"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// Under network = "open" with the user-space stack (docs/egress.md
// "network = open"), a connection to the host's neighbourhood fails in
// the sandbox (a prohibit route: "Permission denied"; 127.0.0.1 is the
// sandbox's own loopback: "Connection refused"), with no proxy to
// record it. After a failed command the destinations its command line
// names (URLs, user@host, host:port, an address, bash's /dev/tcp/HOST/PORT,
// the host operand of ssh, nc, telnet, ping) are read here, and each
// that is in the neighbourhood and not granted gets one line: what was
// refused, why, and the key that grants it.

// OpenNet is what network = "open" kept out for one command.
type OpenNet struct {
	// HostAddrs are the host's own addresses and interface networks
	// (prohibited beside the special ranges).
	HostAddrs []netip.Prefix
	// Exempt are sandbox.allow_addresses' prefixes; HostPorts
	// sandbox.host_ports.
	Exempt    []netip.Prefix
	HostPorts []int
	// Lookup resolves a name as the sandbox's DNS forwarder does (the
	// host's resolver); nil: literal addresses and localhost only.
	Lookup func(host string) []netip.Addr

	lookups int // names resolved for this command (at most maxLookups)
}

// maxLookups bounds the names resolved after one failed command, each
// at most HostLookup's wait.
const maxLookups = 3

// hostName says whether h has the shape of a DNS name (a word such as
// an e-mail's "b.c>" is not asked for).
func hostName(h string) bool {
	if !strings.Contains(h, ".") || len(h) > 253 {
		return false
	}
	for _, r := range h {
		if !(r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// stackGateway is the user-space stack's gateway (sandbox/usernet.go),
// which does not lead to the host's loopback.
var stackGateway = netip.MustParseAddr("10.0.2.2")

// openLines returns the lines for the neighbourhood destinations calls
// and writes name.
func (o *OpenNet) openLines(calls []callArgs, writes []string) []string {
	var out []string
	seen := map[string]bool{}
	try := func(host, port string) {
		if host == "" || seen[host+":"+port] {
			return
		}
		seen[host+":"+port] = true
		if l := o.line(host, port); l != "" {
			out = append(out, l)
		}
	}
	for _, w := range writes {
		if h, p, ok := devTCP(w); ok {
			try(h, p)
		}
	}
	for _, argv := range calls {
		if len(argv) == 0 {
			continue
		}
		if filepath.Base(argv[0]) == "ssh" {
			try(sshDestination(argv[1:]))
			continue
		}
		hostOperand := slices.Contains([]string{"nc", "ncat", "telnet", "ping"}, filepath.Base(argv[0]))
		for _, a := range argv[1:] {
			if h, p, ok := devTCP(a); ok {
				try(h, p)
				continue
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			h, p := destination(a)
			if h == "" && hostOperand {
				h, hostOperand = a, false
				if i := strings.LastIndex(h, "@"); i >= 0 {
					h = h[i+1:]
				}
			}
			try(h, p)
		}
	}
	return out
}

// sshOptArgs are ssh's options that take an argument (ssh(1)).
const sshOptArgs = "BbcDEeFIiJLlmOoPpQRSWw"

// sshDestination reads ssh's destination (the first operand: host,
// user@host or ssh://[user@]host[:port]) and its port (the URL's, -p's,
// or 22). An option's argument (-i KEY, -F FILE) is not the host, and
// the remote command's words are not destinations of this host.
func sshDestination(args []string) (host, port string) {
	port = "22"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 == len(args) {
				return "", ""
			}
			a = args[i+1]
		} else if len(a) > 1 && a[0] == '-' {
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(sshOptArgs, a[j]) < 0 {
					continue
				}
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				if a[j] == 'p' {
					port = v
				}
				break
			}
			continue
		}
		if strings.Contains(a, "://") {
			h, p := destination(a)
			return h, cmp.Or(p, port)
		}
		return a[strings.LastIndex(a, "@")+1:], port
	}
	return "", ""
}

// callArgs is one simple command's words.
type callArgs = []string

// devTCP reads bash's /dev/tcp/HOST/PORT (or /dev/udp).
func devTCP(p string) (host, port string, ok bool) {
	for _, pre := range []string{"/dev/tcp/", "/dev/udp/"} {
		if rest, found := strings.CutPrefix(p, pre); found {
			host, port, _ = strings.Cut(rest, "/")
			return host, port, host != ""
		}
	}
	return "", "", false
}

// destination reads a word as a URL, user@host[:path], host:port or an
// address; host is "" when it is none of them.
func destination(a string) (host, port string) {
	if strings.Contains(a, "://") {
		if u, err := url.Parse(a); err == nil {
			return u.Hostname(), u.Port()
		}
		return "", ""
	}
	if i := strings.Index(a, "@"); i > 0 && !strings.Contains(a[:i], "/") {
		h, _, _ := strings.Cut(a[i+1:], ":")
		return h, "22"
	}
	if h, p, err := net.SplitHostPort(a); err == nil {
		if _, err := strconv.Atoi(p); err == nil {
			return h, p
		}
	}
	if _, err := netip.ParseAddr(a); err == nil || a == "localhost" {
		return a, ""
	}
	return "", ""
}

// line explains host (and port, when known), or returns "" when it is
// not in the neighbourhood or is granted.
func (o *OpenNet) line(host, port string) string {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a.Unmap()}
	} else if host == "localhost" {
		addrs = []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	} else if o.Lookup != nil && hostName(host) && o.lookups < maxLookups {
		o.lookups++
		addrs = o.Lookup(host)
	}
	shown := host
	if port != "" {
		shown = net.JoinHostPort(host, port)
	}
	for _, a := range addrs {
		if a.IsLoopback() || a == stackGateway {
			if p, err := strconv.Atoi(port); err == nil && slices.Contains(o.HostPorts, p) && a.IsLoopback() {
				return ""
			}
			what := "is the sandbox's own loopback, not this host's,"
			if a == stackGateway {
				what = "is the user-space stack's gateway, which does not lead to this host's loopback"
			}
			grant := "sandbox.host_ports = [PORT]"
			if port != "" {
				grant = "sandbox.host_ports = [" + port + "]"
			}
			return "lite-sandbox: " + shown + " " + what + ` under network = "open" (the host's services are kept out of the sandbox); to reach a port of this host: ` + grant + ` in your own config, or network = "host"`
		}
		if !o.refused(a) {
			continue
		}
		return "lite-sandbox: " + shown + " (" + a.String() + ", " + neighbourKind(a, o.HostAddrs) + `) is in this host's neighbourhood, which network = "open" refuses ("Permission denied"); to allow it: sandbox.allow_addresses = ["` + a.String() + `"] in your own config, or network = "host"`
	}
	return ""
}

// refused says whether a is prohibited in the sandbox: a special range
// or the host's own networks, and not exempt.
func (o *OpenNet) refused(a netip.Addr) bool {
	if !a.Is4() {
		return false // no IPv6 route at all: not the neighbourhood's doing
	}
	in := func(ps []netip.Prefix) bool {
		return slices.ContainsFunc(ps, func(p netip.Prefix) bool { return p.Contains(a) })
	}
	return (in(sandbox.NeighbourhoodV4()) || in(o.HostAddrs)) && !in(o.Exempt)
}

// neighbourKind names the range of a.
func neighbourKind(a netip.Addr, host []netip.Prefix) string {
	switch {
	case a == netip.MustParseAddr("169.254.169.254"):
		return "the cloud metadata address"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case slices.ContainsFunc(host, func(p netip.Prefix) bool { return p.Addr() == a }):
		return "this host's own address"
	case slices.ContainsFunc(host, func(p netip.Prefix) bool { return p.Masked().Contains(a) }):
		return "the LAN of this host"
	case a.IsPrivate():
		return "a private address: a LAN"
	}
	return "a special-purpose range"
}

// HostNetworks returns this host's addresses with their networks, as
// the prohibit routes take them (sandbox/usernet.go).
func HostNetworks() []netip.Prefix {
	var out []netip.Prefix
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok && ip.Unmap().Is4() && !ip.IsLoopback() {
				ones, _ := n.Mask.Size()
				out = append(out, netip.PrefixFrom(ip.Unmap(), ones))
			}
		}
	}
	return out
}

// HostLookup resolves a name with the host's resolver, briefly: it runs
// only after a failed command.
func HostLookup(host string) []netip.Addr {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	addrs, _ := net.DefaultResolver.LookupNetIP(ctx, "ip4", host)
	for i := range addrs {
		addrs[i] = addrs[i].Unmap()
	}
	return addrs
}
