// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"net/netip"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// TestNeighbourhoodMatchesSpecial (#27): the ranges network = "open"
// prohibits in the sandbox's namespace (sandbox.NeighbourhoodV4) are the
// IPv4 addresses this proxy refuses as special, no more and no less:
// every IPv4 row of specialRanges is covered, and over a sweep of the
// IPv4 space an address is in a prohibited range exactly when classify
// calls it special.
func TestNeighbourhoodMatchesSpecial(t *testing.T) {
	t.Parallel()
	ns := sandbox.NeighbourhoodV4()
	in := func(a netip.Addr) bool {
		for _, p := range ns {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	for _, r := range specialRanges {
		if !r.prefix.Addr().Is4() {
			continue
		}
		covered := false
		for _, p := range ns {
			covered = covered || (p.Bits() <= r.prefix.Bits() && p.Contains(r.prefix.Addr()))
		}
		if !covered {
			t.Errorf("special range %s is not prohibited under open", r.prefix)
		}
	}
	for a := range 256 {
		for b := range 256 {
			for _, c := range []byte{0, 1, 2, 88, 99, 100, 113, 169, 255} {
				for _, d := range []byte{1, 254, 255} {
					addr := netip.AddrFrom4([4]byte{byte(a), byte(b), c, d})
					if got, want := in(addr), classify(addr, nil) != ""; got != want {
						t.Fatalf("%s: prohibited under open %v, special to the proxy %v", addr, got, want)
					}
				}
			}
		}
	}
}
