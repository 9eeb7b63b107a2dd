// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestCheckName(t *testing.T) {
	r, err := NewRules([]string{"example.com", "*.example.org", "192.0.2.7", "Registry.NPMjs.org."},
		[]string{"bad.example.org"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		host string
		key  string // "" = allowed
	}{
		{"example.com", ""},
		{"EXAMPLE.com.", ""},
		{"www.example.com", keyAllowDomains}, // a bare name is that name only
		{"a.example.org", ""},
		{"a.b.example.org", ""},
		{"example.org", keyAllowDomains}, // *. is below the name, not the name
		{"bad.example.org", keyDenyDomains},
		{"registry.npmjs.org", ""},
		{"evilexample.com", keyAllowDomains},
		{"example.com.evil.net", keyAllowDomains},
		{"192.0.2.7", ""},
		{"192.0.2.8", keyAllowDomains},
		{"[::ffff:192.0.2.7]", ""},
		{"ex\u0430mple.com", "invalid"}, // Cyrillic a: no key allows it
		{"*.example.org", "invalid"},
		{"", "invalid"},
		{"a\x00b.example.com", "invalid"},
	} {
		_, ref := r.checkName(tc.host, 443)
		got := ""
		switch {
		case ref != nil && ref.Key == "":
			got = "invalid"
			if strings.ContainsAny(ref.Host, "\x00") || ref.Host == "" {
				t.Errorf("checkName(%q): host %q is not printable", tc.host, ref.Host)
			}
		case ref != nil:
			got = ref.Key
		}
		if got != tc.key {
			t.Errorf("checkName(%q) = %q, want %q", tc.host, got, tc.key)
		}
	}
}

func TestCheckPattern(t *testing.T) {
	for _, bad := range []string{"", "**", "*.com.*", "com", "a..b", "exa mple.com", "*example.com", "ex\u0430mple.com"} {
		if _, err := CheckPattern(bad); err == nil {
			t.Errorf("CheckPattern(%q) accepted", bad)
		}
	}
	for _, good := range []string{"example.com", "*.example.com", "xn--e1afmkfd.xn--p1ai", "10.0.0.1", "::1", "localhost", "*"} {
		if _, err := CheckPattern(good); err != nil {
			t.Errorf("CheckPattern(%q): %v", good, err)
		}
	}
}

type mapResolver map[string][]netip.Addr

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return m[host], nil
}

// publicAddr stands for an ordinary public address: vet never dials,
// so no test reaches it.
const publicAddr = "93.184.215.14"

// TestVetAddresses: an allowed name that resolves to a special address
// (netip's classes, the IANA special-purpose registries, NAT64 and 6to4
// by their embedded IPv4, the host's own addresses and networks) is
// refused unless allow_addresses names it.
func TestVetAddresses(t *testing.T) {
	special := []string{"127.0.0.1", "127.1.2.3", "::1", "169.254.169.254", "fe80::1", "10.1.2.3", "172.16.0.1",
		"192.168.1.1", "100.64.0.1", "fc00::1", "0.0.0.0", "::", "224.0.0.1", "ff02::1", "::ffff:127.0.0.1",
		"255.255.255.255", "192.0.0.192", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "240.0.0.1",
		"64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::a9fe:a9fe", "64:ff9b:1:a9fe:a9:fe00::",
		"2002:a9fe:a9fe::1", "2002:7f00:1::", "2001:db8::1", "2001::1", "3fff::1", "100::1", "fec0::1", "::127.0.0.1",
		// the host's own address and a neighbour on its non-RFC 1918 LAN
		"198.19.0.1" /* benchmarking too */, "45.1.2.3", "45.1.2.200", "2a01:1::99"}
	res := mapResolver{}
	var names []string
	for i, a := range special {
		n := fmt.Sprintf("n%d.test", i)
		names = append(names, n)
		res[n] = []netip.Addr{netip.MustParseAddr(a)}
	}
	res["public.test"] = []netip.Addr{netip.MustParseAddr(publicAddr)}
	res["public6.test"] = []netip.Addr{netip.MustParseAddr("2a00:1450::1"), netip.MustParseAddr("64:ff9b::5db8:d70e")}
	res["mixed.test"] = []netip.Addr{netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr(publicAddr)}
	res["dev.test"] = []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	r, err := NewRules(append(names, "public.test", "public6.test", "mixed.test", "dev.test"), nil, []string{"127.0.0.1:3000"})
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Rules: r, Resolver: res}
	p.hosts.read = func() ([]netip.Prefix, error) {
		return []netip.Prefix{netip.MustParsePrefix("45.1.2.3/24"), netip.MustParsePrefix("2a01:1::5/64")}, nil
	}
	p.init()
	for i, n := range names {
		_, _, ref := p.vet(context.Background(), n, 80)
		if ref == nil || ref.Key != keyAllowAddresses {
			t.Errorf("%s (%s): not refused by address: %v", n, special[i], ref)
			continue
		}
		if strings.Contains(ref.Reason, " a an") || strings.Contains(ref.Reason, "a one") || strings.Contains(ref.Reason, "a unspecified") {
			t.Errorf("%s: reason %q", special[i], ref.Reason)
		}
	}
	// Positive controls.
	for _, n := range []string{"public.test", "public6.test"} {
		if _, addrs, ref := p.vet(context.Background(), n, 443); ref != nil || len(addrs) != len(res[n]) {
			t.Errorf("%s: %v %v", n, addrs, ref)
		}
	}
	if _, addrs, ref := p.vet(context.Background(), "mixed.test", 80); ref != nil || len(addrs) != 1 || addrs[0].String() != publicAddr {
		t.Errorf("mixed.test: %v %v, want only the public address", addrs, ref)
	}
	if _, _, ref := p.vet(context.Background(), "dev.test", 3000); ref != nil {
		t.Errorf("dev.test:3000 is in allow_addresses: %v", ref)
	}
	if _, _, ref := p.vet(context.Background(), "dev.test", 3001); ref == nil {
		t.Error("dev.test:3001: another port was let through")
	}
}

// TestHostAddressesRefreshed: an address the host gains during the
// proxy's life is refused within the cache's lifetime, not only by a
// proxy started afterwards.
func TestHostAddressesRefreshed(t *testing.T) {
	r, _ := NewRules([]string{"vpn.test"}, nil, nil)
	p := &Proxy{Rules: r, Resolver: mapResolver{"vpn.test": {netip.MustParseAddr(publicAddr)}}}
	var mu sync.Mutex
	var own []netip.Prefix
	p.hosts.read = func() ([]netip.Prefix, error) { mu.Lock(); defer mu.Unlock(); return slices.Clone(own), nil }
	p.init()
	if _, _, ref := p.vet(context.Background(), "vpn.test", 443); ref != nil {
		t.Fatalf("before the address was added: %v", ref)
	}
	mu.Lock()
	own = []netip.Prefix{netip.PrefixFrom(netip.MustParseAddr(publicAddr), 32)}
	mu.Unlock()
	p.hosts.mu.Lock()
	p.hosts.at = p.hosts.at.Add(-hostAddrTTL) // as if the TTL had passed
	p.hosts.mu.Unlock()
	if _, _, ref := p.vet(context.Background(), "vpn.test", 443); ref == nil || !strings.Contains(ref.Reason, "this host's own") {
		t.Errorf("after the address was added: %v, want refused as the host's own", ref)
	}
}

// TestPortsAndAnyPublic: names reach 80 and 443 only, unless
// allow_ports widens it or allow_addresses names the port; "*" allows
// every public destination and never a special one.
func TestPortsAndAnyPublic(t *testing.T) {
	res := mapResolver{"pub.test": {netip.MustParseAddr(publicAddr)}, "meta.test": {netip.MustParseAddr("169.254.169.254")},
		"lan.test": {netip.MustParseAddr("10.0.0.5")}}
	for _, tc := range []struct {
		cfg  Config
		host string
		port uint16
		key  string // "" = allowed
	}{
		{Config{AllowDomains: []string{"pub.test"}}, "pub.test", 443, ""},
		{Config{AllowDomains: []string{"pub.test"}}, "pub.test", 80, ""},
		{Config{AllowDomains: []string{"pub.test"}}, "pub.test", 22, keyAllowPorts},
		{Config{AllowDomains: []string{"pub.test"}, AllowPorts: []int{22}}, "pub.test", 22, ""},
		{Config{AllowDomains: []string{"lan.test"}, AllowAddresses: []string{"10.0.0.5:5432"}}, "lan.test", 5432, ""},
		{Config{AllowDomains: []string{"lan.test"}, AllowAddresses: []string{"10.0.0.0/8"}}, "lan.test", 6379, ""},
		{Config{AllowDomains: []string{"lan.test"}, AllowAddresses: []string{"10.0.0.5:5432"}}, "lan.test", 5433, keyAllowPorts},
		{Config{AllowDomains: []string{"*"}}, "pub.test", 443, ""},
		{Config{AllowDomains: []string{"*"}}, publicAddr, 443, ""},
		{Config{AllowDomains: []string{"*"}}, "anything.example", 443, ""}, // resolves to nothing: failed, not refused
		{Config{AllowDomains: []string{"*"}}, "meta.test", 80, keyAllowAddresses},
		{Config{AllowDomains: []string{"*"}}, "169.254.169.254", 80, keyAllowAddresses},
		{Config{AllowDomains: []string{"*"}}, "lan.test", 443, keyAllowAddresses},
		{Config{AllowDomains: []string{"*"}}, "127.0.0.1", 443, keyAllowAddresses},
		{Config{AllowDomains: []string{"*"}, DenyDomains: []string{"pub.test"}}, "pub.test", 443, keyDenyDomains},
		{Config{AllowDomains: []string{"*"}}, "pub.test", 25, keyAllowPorts},
	} {
		r, err := Compile(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := &Proxy{Rules: r, Resolver: res}
		p.hosts.read = func() ([]netip.Prefix, error) { return nil, nil }
		p.init()
		_, _, ref := p.vet(context.Background(), tc.host, tc.port)
		got := ""
		if ref != nil && !ref.Failed {
			got = ref.Key
		}
		if got != tc.key {
			t.Errorf("%+v %s:%d: refused by %q (%v), want %q", tc.cfg, tc.host, tc.port, got, ref, tc.key)
		}
	}
}

// TestRefusedNameNotLookedUp: the resolver never sees a refused name.
func TestRefusedNameNotLookedUp(t *testing.T) {
	r, _ := NewRules([]string{"ok.test"}, nil, nil)
	seen := recResolver{}
	p := &Proxy{Rules: r, Resolver: seen}
	p.init()
	p.vet(context.Background(), "secret-data.attacker.test", 443)
	if len(seen) != 0 {
		t.Errorf("looked up %v", seen)
	}
}

type recResolver map[string]bool

func (m recResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	m[host] = true
	return nil, nil
}
