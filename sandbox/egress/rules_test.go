// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"net/netip"
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
		{"ex\u0430mple.com", keyAllowDomains}, // Cyrillic a
		{"*.example.org", keyAllowDomains},
		{"", keyAllowDomains},
	} {
		_, ref := r.checkName(tc.host, 443)
		got := ""
		if ref != nil {
			got = ref.Key
		}
		if got != tc.key {
			t.Errorf("checkName(%q) = %q, want %q", tc.host, got, tc.key)
		}
	}
}

func TestCheckPattern(t *testing.T) {
	for _, bad := range []string{"", "*", "*.com.*", "com", "a..b", "exa mple.com", "*example.com", "ex\u0430mple.com"} {
		if _, err := CheckPattern(bad); err == nil {
			t.Errorf("CheckPattern(%q) accepted", bad)
		}
	}
	for _, good := range []string{"example.com", "*.example.com", "xn--e1afmkfd.xn--p1ai", "10.0.0.1", "::1", "localhost"} {
		if _, err := CheckPattern(good); err != nil {
			t.Errorf("CheckPattern(%q): %v", good, err)
		}
	}
}

type mapResolver map[string][]netip.Addr

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return m[host], nil
}

// TestVetAddresses: an allowed name that resolves to a local or private
// address is refused unless allow_addresses names it.
func TestVetAddresses(t *testing.T) {
	names := []string{}
	res := mapResolver{}
	for _, a := range []string{"127.0.0.1", "127.1.2.3", "::1", "169.254.169.254", "fe80::1", "10.1.2.3", "172.16.0.1",
		"192.168.1.1", "100.64.0.1", "fc00::1", "0.0.0.0", "::", "224.0.0.1", "ff02::1", "::ffff:127.0.0.1", "255.255.255.255"} {
		n := "n" + string(rune('a'+len(names))) + ".test"
		names = append(names, n)
		res[n] = []netip.Addr{netip.MustParseAddr(a)}
	}
	res["public.test"] = []netip.Addr{netip.MustParseAddr("192.0.2.1")}
	res["mixed.test"] = []netip.Addr{netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("192.0.2.1")}
	res["own.test"] = []netip.Addr{netip.MustParseAddr("192.0.2.99")}
	res["dev.test"] = []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	r, err := NewRules(append(names, "public.test", "mixed.test", "own.test", "dev.test"), nil, []string{"127.0.0.1:3000"})
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Rules: r, Resolver: res}
	p.init()
	p.own[netip.MustParseAddr("192.0.2.99")] = true
	for i, n := range names {
		if _, _, ref := p.vet(context.Background(), n, 80); ref == nil || ref.Key != keyAllowAddresses {
			t.Errorf("%s (%v): not refused by address: %v", n, res[n][0], ref)
		}
		_ = i
	}
	if _, addrs, ref := p.vet(context.Background(), "public.test", 80); ref != nil || len(addrs) != 1 {
		t.Errorf("public.test: %v %v", addrs, ref)
	}
	if _, addrs, ref := p.vet(context.Background(), "mixed.test", 80); ref != nil || len(addrs) != 1 || addrs[0].String() != "192.0.2.1" {
		t.Errorf("mixed.test: %v %v, want only the public address", addrs, ref)
	}
	if _, _, ref := p.vet(context.Background(), "own.test", 80); ref == nil {
		t.Error("own.test: the host's own address was not refused")
	}
	if _, _, ref := p.vet(context.Background(), "dev.test", 3000); ref != nil {
		t.Errorf("dev.test:3000 is in allow_addresses: %v", ref)
	}
	if _, _, ref := p.vet(context.Background(), "dev.test", 3001); ref == nil {
		t.Error("dev.test:3001: another port was let through")
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
