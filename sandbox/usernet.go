// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"net/netip"
	"os/exec"
	"slices"
)

// network = "open" is the internet, not the host's neighbourhood
// (docs/egress.md, "network = open"; escape class 20): the command
// sandbox gets a network namespace of its own, connected to the internet
// by a user-space stack (slirp4netns, started with
// --disable-host-loopback, so that its gateway 10.0.2.2 does not lead to
// the host's loopback), and before the command runs its namespace gets a
// "prohibit" route for every range below and for the host's own
// addresses and networks. The stack's connections leave from the host,
// so a route in the sandbox is what keeps the host's loopback services,
// its LAN and the metadata address out; the command has no capability
// to change it.

// UserNetProgram is the user-space network stack network = "open" needs.
const UserNetProgram = "slirp4netns"

// The stack's own subnet: the sandbox is 10.0.2.100, the gateway
// 10.0.2.2 (host loopback: disabled), the DNS forwarder 10.0.2.3 (it
// asks the host's resolver). Its connected route is more specific than
// the prohibited 10.0.0.0/8.
const (
	userNetDNS = "10.0.2.3"
	userNetDev = "tap0"
)

// neighbourhoodV4 are the IPv4 ranges that are not the internet: Go's
// net/netip classes (loopback, private, link-local, multicast,
// unspecified) and the IANA special-purpose registry's entries that are
// not globally reachable, the same list as the egress proxy's
// (sandbox/egress/special.go; a test there compares them). IPv6 has no
// route at all in the sandbox (slirp4netns without --enable-ipv6).
var neighbourhoodV4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("192.88.99.0/24"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("240.0.0.0/4"),
}

// NeighbourhoodV4 returns the prohibited IPv4 ranges (a copy), for the
// egress package's test.
func NeighbourhoodV4() []netip.Prefix { return slices.Clone(neighbourhoodV4) }

// prohibitedPrefixes adds to neighbourhoodV4 the host's own IPv4
// addresses and the networks of its interfaces (a LAN neighbour on a
// public subnet is the LAN all the same), less the exempt prefixes
// (sandbox.allow_addresses).
func prohibitedPrefixes(host, exempt []netip.Prefix) []netip.Prefix {
	out := prohibitedHost(host)
	for _, e := range exempt {
		out = subtract(out, e)
	}
	return out
}

func prohibitedHost(host []netip.Prefix) []netip.Prefix {
	out := slices.Clone(neighbourhoodV4)
	for _, h := range host {
		if !h.Addr().Is4() || h.Addr().IsLoopback() {
			continue
		}
		for _, p := range []netip.Prefix{h.Masked(), netip.PrefixFrom(h.Addr(), 32)} {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// UserNet returns the path of the user-space stack, or "" and why it
// cannot run here: not installed, or /dev/net/tun not openable by this
// user (network = "open" then shares the host's network, with a notice:
// [Prepared.Notice]).
func UserNet() (path, why string) {
	p, err := exec.LookPath(UserNetProgram)
	if err != nil {
		return "", UserNetProgram + " is not installed (apt-get install " + UserNetProgram + ", or scripts/deps)"
	}
	if why := tunUsable(); why != "" {
		return "", why
	}
	return p, ""
}

// Notices printed when a command shares the host's network.
const (
	NoticeHostNetwork = `lite-sandbox: warning: network = "host": commands share this host's network (its loopback services, LAN and the metadata address 169.254.169.254 are reachable); "open" keeps them out`
	noticeNoUserNet   = `lite-sandbox: warning: network = "open" shares this host's network (its loopback services, LAN and 169.254.169.254 are reachable): `
)

// networkNotice is [Prepared.Notice] for s.
func networkNotice(s Spec) string {
	switch {
	case s.Network == NetworkHost:
		return NoticeHostNetwork
	case s.Network == NetworkOpen && s.UserNet == "":
		_, why := UserNet()
		if why == "" {
			why = "no user-space network stack"
		}
		return noticeNoUserNet + why
	}
	return ""
}

// subtract removes e from every prefix of ps: a prefix inside e goes,
// one containing e is split into the halves that do not hold it, down
// to e's length (at most 32 prefixes for an IPv4 address). Subtracting
// rather than adding a route for e: a host address inside e has a /32
// prohibit route, more specific than any route e could add.
func subtract(ps []netip.Prefix, e netip.Prefix) []netip.Prefix {
	var out []netip.Prefix
	for _, p := range ps {
		switch {
		case e.Bits() <= p.Bits() && e.Contains(p.Addr()):
			// p lies inside e: exempt entirely.
		case p.Bits() < e.Bits() && p.Contains(e.Addr()):
			out = append(out, split(p, e)...)
		default:
			out = append(out, p)
		}
	}
	return out
}

// split returns p less e, where e lies strictly inside p.
func split(p, e netip.Prefix) []netip.Prefix {
	var out []netip.Prefix
	for p.Bits() < e.Bits() {
		lo := netip.PrefixFrom(p.Addr(), p.Bits()+1).Masked()
		hi := netip.PrefixFrom(nextHalf(lo), p.Bits()+1)
		if lo.Contains(e.Addr()) {
			out, p = append(out, hi), lo
		} else {
			out, p = append(out, lo), hi
		}
	}
	return out
}

// nextHalf is the first address after the prefix lo.
func nextHalf(lo netip.Prefix) netip.Addr {
	a := lo.Addr().As4()
	v := uint32(a[0])<<24 | uint32(a[1])<<16 | uint32(a[2])<<8 | uint32(a[3])
	v += 1 << (32 - lo.Bits())
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// exemptPrefixes reads sandbox.allow_addresses for network = "open": an
// address, a prefix or an address with a port (a route cannot tell
// ports apart, so under open the address is exempt on every port:
// docs/egress.md "Grants under open"). IPv6 entries are skipped (the
// sandbox has no IPv6 route at all); loopback ones too (the host's
// loopback is never routed: sandbox.host_ports forwards a port).
func exemptPrefixes(entries []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range entries {
		p, err := parseEntry(v)
		if err != nil {
			return nil, fmt.Errorf("sandbox spec: allow_addresses: %q: %w", v, err)
		}
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-unmapBits(p)).Masked()
		if !p.Addr().Is4() || p.Addr().IsLoopback() || slices.Contains(out, p) {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

func unmapBits(p netip.Prefix) int {
	if p.Addr().Is4In6() {
		return 96
	}
	return 0
}

func parseEntry(v string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(v); err == nil {
		return p, nil
	}
	if a, err := netip.ParseAddr(v); err == nil {
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	ap, err := netip.ParseAddrPort(v)
	if err != nil {
		return netip.Prefix{}, errors.New("not an address, prefix or address:port")
	}
	return netip.PrefixFrom(ap.Addr(), ap.Addr().BitLen()), nil
}
