// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// hostNets is a snapshot of the host's interface addresses with their
// prefixes: an address of the host is as local as loopback, and a
// neighbour on one of its networks is the LAN, whatever its range (a
// LAN on a public or non-RFC 1918 subnet is still a LAN; escape class
// 20).
type hostNets []netip.Prefix

func (h hostNets) classify(a netip.Addr) string {
	for _, p := range h {
		if p.Addr() == a {
			return "one of this host's own addresses"
		}
	}
	for _, p := range h {
		// A host route (/32, /128) is no network; a default-sized
		// prefix (0 bits) would be everything.
		if p.Bits() > 0 && p.Bits() < p.Addr().BitLen() && p.Contains(a) {
			return "an address on this host's network " + p.Masked().String()
		}
	}
	return ""
}

// hostAddrTTL bounds how stale the snapshot may be. Interfaces come and
// go during a session (a VPN, a docker network, an IPv6 privacy
// address): a short cache sees them within the TTL at the cost of one
// getifaddrs per TTL while connections arrive, rather than a netlink
// subscription's goroutine and socket for the session's lifetime.
const hostAddrTTL = 2 * time.Second

// hostCache holds the snapshot and when it was read.
type hostCache struct {
	// read returns the host's interface prefixes; net.InterfaceAddrs
	// unless a test replaces it.
	read func() ([]netip.Prefix, error)

	mu   sync.Mutex
	at   time.Time
	nets hostNets
}

func (c *hostCache) get() hostNets {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nets != nil && time.Since(c.at) < hostAddrTTL {
		return c.nets
	}
	read := c.read
	if read == nil {
		read = interfacePrefixes
	}
	ps, err := read()
	if err != nil && c.nets != nil {
		// Keep the last snapshot rather than forget the host's
		// addresses on a transient error.
		return c.nets
	}
	c.nets, c.at = append(hostNets{}, ps...), time.Now()
	return c.nets
}

func interfacePrefixes() ([]netip.Prefix, error) {
	as, err := net.InterfaceAddrs()
	if err != nil {
		return nil, err
	}
	var out []netip.Prefix
	for _, a := range as {
		if pn, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, pn)
		}
	}
	return out, nil
}
