// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package egress is the network of a sandbox with network = "allow": a
// proxy on the host side that lets through only named domains (or, with
// "*", every public destination) on allowed ports, and the bridge inside
// the sandbox's network namespace that carries the sandbox's loopback
// proxy ports to the proxy's Unix socket. What it refuses and why is
// docs/egress.md.
//
// The sandbox has its own network namespace with loopback only (bwrap
// --unshare-net) and no DNS resolver; the one way out is the bind-mounted
// Unix socket. Names resolve here, on the host, and only for allowed
// names; the proxy dials the address it vetted, never the name again, so
// a DNS answer that changes between check and use (rebinding) cannot
// send it elsewhere (docs/security-model.md §5, escape classes 19, 20 and 28).
package egress

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// The policy keys a refusal names, so that the explanation says what to
// change ("" for a target no key lets through, such as a malformed name).
const (
	keyAllowDomains   = "sandbox.allow_domains"
	keyDenyDomains    = "sandbox.deny_domains"
	keyAllowAddresses = "sandbox.allow_addresses"
	keyAllowPorts     = "sandbox.allow_ports"
)

// AnyPublic is the allow_domains entry that allows every public
// destination: any name or IP literal whose addresses are not special
// (loopback, LAN, link-local, metadata, the host's own: classify), on an
// allowed port. deny_domains still applies.
const AnyPublic = "*"

// DefaultPorts are the ports every allowed name may be reached on;
// sandbox.allow_ports adds more. A package registry needs 443 (and 80
// for a redirect); a name allowed for HTTPS is not a licence to reach
// its SMTP or database port.
var DefaultPorts = []uint16{80, 443}

// Rules decide which targets the proxy may reach.
type Rules struct {
	allow, deny []string // normalised patterns: "example.com", "*.example.com" or "*"
	addrs       []addrRule
	ports       map[uint16]bool
}

// Config is the policy's network lists, as [Compile] takes them.
type Config struct {
	AllowDomains, DenyDomains []string
	// AllowAddresses holds IP addresses or prefixes, optionally with a
	// port, that may be reached although they are special.
	AllowAddresses []string
	// AllowPorts are ports beyond [DefaultPorts].
	AllowPorts []int
}

// addrRule is one sandbox.allow_addresses entry: a prefix, and a port
// when the entry named one (0: any port).
type addrRule struct {
	prefix netip.Prefix
	port   uint16
}

// NewRules is [Compile] with the default ports.
func NewRules(allow, deny, addrs []string) (*Rules, error) {
	return Compile(Config{AllowDomains: allow, DenyDomains: deny, AllowAddresses: addrs})
}

// Compile checks and compiles the policy's lists. AllowDomains and
// DenyDomains hold domain patterns ("example.com" is that name only,
// "*.example.com" any name below it, not the name itself, "*" any
// public destination) or IP literals; AllowAddresses holds IP addresses
// or prefixes, optionally with a port ("127.0.0.1:3000", "[::1]:8080",
// "10.0.0.0/8"), that may be reached although they are special; an
// entry without a port opens every port of that address.
func Compile(c Config) (*Rules, error) {
	r := &Rules{ports: map[uint16]bool{}}
	for _, list := range []struct {
		key string
		src []string
		dst *[]string
	}{{keyAllowDomains, c.AllowDomains, &r.allow}, {keyDenyDomains, c.DenyDomains, &r.deny}} {
		for _, v := range list.src {
			n, err := CheckPattern(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", list.key, err)
			}
			*list.dst = append(*list.dst, n)
		}
	}
	for _, v := range c.AllowAddresses {
		a, err := parseAddrRule(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", keyAllowAddresses, err)
		}
		r.addrs = append(r.addrs, a)
	}
	for _, p := range DefaultPorts {
		r.ports[p] = true
	}
	for _, p := range c.AllowPorts {
		if err := CheckPort(p); err != nil {
			return nil, fmt.Errorf("%s: %w", keyAllowPorts, err)
		}
		r.ports[uint16(p)] = true
	}
	return r, nil
}

// CheckPort checks one sandbox.allow_ports entry.
func CheckPort(p int) error {
	if p < 1 || p > 65535 {
		return fmt.Errorf("%d is not a TCP port (1 to 65535)", p)
	}
	return nil
}

// CheckPattern checks one domain pattern and returns it normalised (lower
// case, no trailing dot, IDNA A-labels).
func CheckPattern(v string) (string, error) {
	if a, err := netip.ParseAddr(strings.Trim(v, "[]")); err == nil {
		return a.Unmap().String(), nil
	}
	if v == AnyPublic {
		return AnyPublic, nil
	}
	name, wild := strings.CutPrefix(v, "*.")
	n, err := normalize(name)
	if err != nil || strings.Contains(n, "*") || !strings.Contains(n, ".") && n != "localhost" {
		return "", fmt.Errorf("%q is not a domain name, *.domain or IP address", v)
	}
	if wild {
		return "*." + n, nil
	}
	return n, nil
}

// CheckAddress checks one sandbox.allow_addresses entry.
func CheckAddress(v string) error {
	_, err := parseAddrRule(v)
	return err
}

func parseAddrRule(v string) (addrRule, error) {
	if p, err := netip.ParsePrefix(v); err == nil {
		return addrRule{prefix: p.Masked()}, nil
	}
	if a, err := netip.ParseAddr(v); err == nil {
		a = a.Unmap()
		return addrRule{prefix: netip.PrefixFrom(a, a.BitLen())}, nil
	}
	if ap, err := netip.ParseAddrPort(v); err == nil && ap.Port() != 0 {
		a := ap.Addr().Unmap()
		return addrRule{prefix: netip.PrefixFrom(a, a.BitLen()), port: ap.Port()}, nil
	}
	return addrRule{}, fmt.Errorf("%q is not an IP address, prefix or address:port", v)
}

// normalize turns a host name into the form the rules compare: lower
// case, without a trailing dot. Only ASCII letters, digits, '-', '_',
// '.' (and ':' of an IPv6 literal) pass: clients send internationalised
// names as A-labels (xn--...), and refusing anything else means a
// Unicode look-alike can neither match an allowed name nor dodge a
// denied one, without a Unicode table dependency (golang.org/x/text).
func normalize(host string) (string, error) {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "" {
		return "", errors.New("empty host name")
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':' || c == '*') {
			return "", fmt.Errorf("host %q: not an ASCII host name (write it as xn-- A-labels)", host)
		}
	}
	if strings.Contains(h, "..") || strings.HasPrefix(h, ".") {
		return "", fmt.Errorf("host %q: empty label", host)
	}
	return h, nil
}

// match reports whether name (normalised) matches one of the patterns.
func match(patterns []string, name string) bool {
	for _, p := range patterns {
		if p == AnyPublic {
			return true
		}
		if suffix, ok := strings.CutPrefix(p, "*"); ok {
			if strings.HasSuffix(name, suffix) && len(name) > len(suffix) {
				return true
			}
		} else if p == name {
			return true
		}
	}
	return false
}

// refusal says why a target was refused and which policy key would let
// it through, or, with Failed, why an allowed target could not be
// reached (a name that does not resolve: no key helps).
type refusal struct {
	Host   string // as the client named it, normalised (printable)
	Port   uint16
	Key    string // one of the key constants, or ""
	Reason string
	Failed bool
}

func (r *refusal) Error() string {
	return fmt.Sprintf("%s: %s", HostPort(r.Host, r.Port), r.Reason)
}

// HostPort joins a host and a port, bracketing an IPv6 address.
func HostPort(host string, port uint16) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.Itoa(int(port))
}

// checkName decides on a host name (or IP literal) before any lookup.
func (r *Rules) checkName(host string, port uint16) (string, *refusal) {
	n, err := normalize(strings.Trim(host, "[]"))
	if err == nil && strings.Contains(n, "*") {
		err = fmt.Errorf("host %q: a pattern is not a host", host)
	}
	if err != nil {
		// No key lets a malformed name through: the advice must not
		// tell the user to allow it (nor print it raw: a NUL byte).
		return "", &refusal{Host: printable(host), Port: port, Reason: err.Error()}
	}
	if a, err := netip.ParseAddr(n); err == nil {
		n = a.Unmap().String()
		if match(r.deny, n) {
			return n, &refusal{Host: n, Port: port, Key: keyDenyDomains, Reason: "the address is in sandbox.deny_domains"}
		}
		if !match(r.allow, n) {
			return n, &refusal{Host: n, Port: port, Key: keyAllowDomains, Reason: "an IP address is reached only when sandbox.allow_domains names it"}
		}
		return n, nil
	}
	if match(r.deny, n) {
		return n, &refusal{Host: n, Port: port, Key: keyDenyDomains, Reason: "the domain is in sandbox.deny_domains"}
	}
	if !match(r.allow, n) {
		return n, &refusal{Host: n, Port: port, Key: keyAllowDomains, Reason: "the domain is not in sandbox.allow_domains"}
	}
	return n, nil
}

// printable is host as the explanation may print it: quoted when it
// holds anything but printable ASCII, "(empty)" when empty.
func printable(host string) string {
	if host == "" {
		return "(empty)"
	}
	if q := strconv.QuoteToASCII(host); q[1:len(q)-1] != host {
		return q
	}
	return host
}

// portOK reports whether port is open to every allowed name.
func (r *Rules) portOK(port uint16) bool { return r.ports[port] }

// portNamed reports whether some allow_addresses entry could open port
// (one without a port, or with this one), so that the port check must
// wait for the addresses.
func (r *Rules) portNamed(port uint16) bool {
	for _, ar := range r.addrs {
		if ar.port == 0 || ar.port == port {
			return true
		}
	}
	return false
}

// portRefusal is the refusal of a port outside allow_ports.
func portRefusal(name string, port uint16) *refusal {
	return &refusal{Host: name, Port: port, Key: keyAllowPorts,
		Reason: fmt.Sprintf("port %d is not in sandbox.allow_ports (80 and 443 unless your own file adds more)", port)}
}

// addrAllowed reports whether an address the user's allow_addresses
// names explicitly.
func (r *Rules) addrAllowed(a netip.Addr, port uint16) bool {
	for _, ar := range r.addrs {
		if ar.prefix.Contains(a) && (ar.port == 0 || ar.port == port) {
			return true
		}
	}
	return false
}
