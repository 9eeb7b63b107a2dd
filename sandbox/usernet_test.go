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
	got := prohibitedPrefixes(host, nil)
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

// TestExemptPrefixes (#27): sandbox.allow_addresses under open takes
// exactly its addresses out of the prohibited ranges and keeps the rest
// of each range prohibited; loopback and IPv6 entries exempt nothing.
func TestExemptPrefixes(t *testing.T) {
	t.Parallel()
	host := []netip.Prefix{netip.MustParsePrefix("192.168.1.5/24")}
	for _, tc := range []struct {
		entries    []string
		open, shut []string // addresses reachable / still prohibited
		wantErr    bool
	}{
		{entries: nil, shut: []string{"10.1.2.3", "192.168.1.7", "192.168.1.5", "169.254.169.254"}},
		{entries: []string{"10.1.2.3"}, open: []string{"10.1.2.3"}, shut: []string{"10.1.2.2", "10.1.2.4", "10.0.0.1", "10.255.255.255", "169.254.169.254"}},
		{entries: []string{"192.168.1.7:4873"}, open: []string{"192.168.1.7"}, shut: []string{"192.168.1.5", "192.168.1.8", "192.168.0.1"}},
		{entries: []string{"192.168.1.0/24"}, open: []string{"192.168.1.5", "192.168.1.200"}, shut: []string{"192.168.2.1", "10.0.0.1"}},
		{entries: []string{"::ffff:172.16.0.9"}, open: []string{"172.16.0.9"}, shut: []string{"172.16.0.8"}},
		{entries: []string{"127.0.0.1:5432", "::1", "fd00::/8"}, shut: []string{"10.1.2.3"}},
		{entries: []string{"not-an-address"}, wantErr: true},
	} {
		ex, err := exemptPrefixes(tc.entries)
		if (err != nil) != tc.wantErr {
			t.Errorf("%v: error %v, want error %v", tc.entries, err, tc.wantErr)
			continue
		}
		got := prohibitedPrefixes(host, ex)
		covered := func(a string) bool {
			return slices.ContainsFunc(got, func(p netip.Prefix) bool { return p.Contains(netip.MustParseAddr(a)) })
		}
		for _, a := range tc.open {
			if covered(a) {
				t.Errorf("%v: %s is still prohibited", tc.entries, a)
			}
		}
		for _, a := range tc.shut {
			if !covered(a) {
				t.Errorf("%v: %s is no longer prohibited", tc.entries, a)
			}
		}
	}
}
