// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"net/netip"
)

// The address classes the proxy refuses unless sandbox.allow_addresses
// names the address (escape class 20: a name that resolves to a local
// service, the cloud metadata service or a LAN neighbour).
//
// The classification is Go's net/netip methods (loopback, link-local,
// private, multicast, unspecified) followed by specialRanges, which is
// the IANA special-purpose address registries for IPv4
// (https://www.iana.org/assignments/iana-ipv4-special-registry, RFC
// 6890) and IPv6 (https://www.iana.org/assignments/iana-ipv6-special-registry),
// as of their 2025 revisions: every entry whose "Globally Reachable"
// column is False or N/A is here; the entries marked True (AS112,
// AMT, the PCP and TURN anycast addresses, ORCHIDv2, drone remote ID)
// are ordinary public destinations and are left out. 224.0.0.0/4 and
// ff00::/8 are the multicast registries. Translation prefixes that
// carry an IPv4 address (NAT64, 6to4) are judged by the embedded
// address instead (embeddedV4), so 64:ff9b::a9fe:a9fe is the metadata
// address it maps to. See docs/egress.md "What is refused".

// addrClass is one row: the prefix, and the class as the explanation
// says it ("it resolves to X, <phrase>").
type addrClass struct {
	prefix netip.Prefix
	phrase string
}

func row(p, phrase string) addrClass { return addrClass{netip.MustParsePrefix(p), phrase} }

var specialRanges = []addrClass{
	// IPv4 special-purpose registry.
	row("0.0.0.0/8", "an unspecified (\"this network\") address"),
	row("100.64.0.0/10", "a carrier-grade NAT (shared, RFC 6598) address"),
	row("192.0.0.0/24", "an IETF protocol address (192.0.0.0/24; some clouds put their metadata service there)"),
	row("192.0.2.0/24", "a documentation address"),
	row("192.88.99.0/24", "a deprecated 6to4 relay address"),
	row("198.18.0.0/15", "a benchmarking address"),
	row("198.51.100.0/24", "a documentation address"),
	row("203.0.113.0/24", "a documentation address"),
	row("240.0.0.0/4", "a reserved address"),
	row("255.255.255.255/32", "the broadcast address"),
	// IPv6 special-purpose registry.
	// ::/96 (IPv4-compatible, deprecated by RFC 4291) and
	// ::ffff:0:0:0/96 (IPv4-translated, RFC 2765) are not in the
	// registry but name an IPv4 address without a NAT64 in between.
	row("::/96", "a deprecated IPv4-compatible IPv6 address"),
	row("::ffff:0:0:0/96", "an IPv4-translated IPv6 address"),
	row("100::/64", "a discard-only address"),
	row("100:0:0:1::/64", "a dummy IPv6 prefix address"),
	row("2001::/32", "a Teredo address"),
	row("2001:2::/48", "a benchmarking address"),
	row("2001:10::/28", "a deprecated ORCHID address"),
	row("2001:db8::/32", "a documentation address"),
	row("3fff::/20", "a documentation address"),
	row("5f00::/16", "a segment-routing (SRv6) address"),
	row("fec0::/10", "a deprecated site-local address"),
}

// Prefixes whose addresses carry an IPv4 address.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")   // RFC 6052 well-known prefix
	nat64loc  = netip.MustParsePrefix("64:ff9b:1::/48") // RFC 8215 local-use
	sixToFour = netip.MustParsePrefix("2002::/16")      // RFC 3056
)

// embeddedV4 returns the IPv4 addresses an IPv6 address stands for. The
// well-known NAT64 prefix and 6to4 have one place for it; the local-use
// NAT64 prefix may be subdivided into any of RFC 6052's prefix lengths
// (48 to 96 bits), so every layout that fits counts and the address is
// refused when any of them is special.
func embeddedV4(a netip.Addr) []netip.Addr {
	if !a.Is6() {
		return nil
	}
	b := a.As16()
	v4 := func(x ...byte) netip.Addr { return netip.AddrFrom4([4]byte{x[0], x[1], x[2], x[3]}) }
	switch {
	case nat64.Contains(a):
		return []netip.Addr{v4(b[12:]...)}
	case sixToFour.Contains(a):
		return []netip.Addr{v4(b[2:6]...)}
	case nat64loc.Contains(a):
		// RFC 6052 §2.2: bits 64 to 71 are zero; the IPv4 address
		// straddles them for prefix lengths 48 and 56.
		return []netip.Addr{
			v4(b[6], b[7], b[9], b[10]),   // /48
			v4(b[7], b[9], b[10], b[11]),  // /56
			v4(b[9], b[10], b[11], b[12]), // /64
			v4(b[12:]...),                 // /96
		}
	}
	return nil
}

// classify returns the phrase for a special address, or "" for an
// ordinary public one. host reports the host's own addresses and the
// networks they are on.
func classify(a netip.Addr, host hostNets) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		return "a link-local address (the cloud metadata address 169.254.169.254 lives there)"
	case a.IsPrivate():
		return "a private address"
	case a.IsUnspecified():
		return "an unspecified address"
	case a.IsMulticast():
		return "a multicast address"
	}
	for _, v4 := range embeddedV4(a) {
		if s := classify(v4, host); s != "" {
			return "a NAT64/6to4 address for " + v4.String() + ", " + s
		}
	}
	for _, c := range specialRanges {
		if c.prefix.Contains(a) {
			return c.phrase
		}
	}
	return host.classify(a)
}
