// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"net/netip"
	"slices"
	"testing"
)

// TestProhibitedPrefixes (#27): the host's own IPv4 addresses and the
// networks of its interfaces join the special ranges (a LAN on a public
// subnet is the LAN all the same); loopback and IPv6 add nothing (IPv6
// has no route in the sandbox at all).
func TestProhibitedPrefixes(t *testing.T) {
	t.Parallel()
	host := []netip.Prefix{
		netip.MustParsePrefix("127.0.0.1/8"),
		netip.MustParsePrefix("45.33.0.7/24"),
		netip.MustParsePrefix("192.168.1.5/24"),
		netip.MustParsePrefix("2001:db8::1/64"),
	}
	got := prohibitedPrefixes(host)
	for _, want := range []string{"45.33.0.0/24", "45.33.0.7/32", "192.168.1.0/24", "192.168.1.5/32", "10.0.0.0/8", "169.254.0.0/16", "127.0.0.0/8"} {
		if !slices.Contains(got, netip.MustParsePrefix(want)) {
			t.Errorf("%s is not prohibited: %v", want, got)
		}
	}
	for _, p := range got {
		if !p.Addr().Is4() || p == netip.MustParsePrefix("127.0.0.1/32") {
			t.Errorf("unexpected prohibited prefix %s", p)
		}
	}
	if len(got) != len(neighbourhoodV4)+4 {
		t.Errorf("got %d prefixes, want the %d special ones and 4 of the host's: %v", len(got), len(neighbourhoodV4), got)
	}
}

// TestNetworkNotice: a warning line exactly when the command shares the
// host's network.
func TestNetworkNotice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    Spec
		want bool
	}{
		{Spec{Network: NetworkHost}, true},
		{Spec{Network: NetworkOpen, UserNet: "/usr/bin/slirp4netns"}, false},
		{Spec{Network: NetworkOpen}, true},
		{Spec{Network: NetworkAllow}, false},
		{Spec{Network: NetworkOff}, false},
	} {
		if got := networkNotice(tc.s) != ""; got != tc.want {
			t.Errorf("%+v: notice %v, want %v", tc.s, got, tc.want)
		}
		if got := sharesHostNetwork(tc.s); got != tc.want {
			t.Errorf("%+v: shares the host's network %v, want %v", tc.s, got, tc.want)
		}
	}
}
