// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"net/netip"
	"strings"
	"testing"
)

// TestOpenNetLines: under network = "open" a failed command that names
// a destination in the host's neighbourhood gets one line naming it,
// why, and the key that grants it; a granted one, an internet host and
// a name that resolves to one get none (#27).
func TestOpenNetLines(t *testing.T) {
	t.Parallel()
	open := &OpenNet{
		HostAddrs: []netip.Prefix{netip.MustParsePrefix("192.168.50.1/24"), netip.MustParsePrefix("45.33.0.1/32")},
		Exempt:    []netip.Prefix{netip.MustParsePrefix("10.8.0.0/16")},
		HostPorts: []int{4873},
		Lookup: func(h string) []netip.Addr {
			return map[string][]netip.Addr{
				"db.lan":      {netip.MustParseAddr("192.168.50.7")},
				"example.com": {netip.MustParseAddr("93.184.0.2")},
			}[h]
		},
	}
	c := Context{Workspace: "/w", Cwd: "/w", Home: "/home/u", Open: open}
	const hostKey, addrKey = `sandbox.host_ports = [`, `sandbox.allow_addresses = ["`
	for _, tc := range []struct {
		name, cmd string
		want      []string // substrings of the one line; nil: no line
	}{
		{"metadata", "curl -sS http://169.254.169.254/latest/meta-data/", []string{"169.254.169.254", "the cloud metadata address", addrKey + "169.254.169.254\"]", `network = "host"`}},
		{"host loopback", "curl http://127.0.0.1:5432/", []string{"127.0.0.1:5432", "own loopback", hostKey + "5432]", `network = "host"`}},
		{"localhost", "psql -h x postgres://localhost:5432/db", []string{"localhost:5432", hostKey + "5432]"}},
		{"stack gateway", "bash -c 'exec 3<>/dev/tcp/10.0.2.2/8080'", []string{"10.0.2.2:8080", "gateway", hostKey + "8080]"}},
		{"lan by name", "git clone ssh://git@db.lan/repo.git", []string{"db.lan", "192.168.50.7", "the LAN of this host", addrKey + "192.168.50.7\"]"}},
		{"host's own address", "nc 45.33.0.1 8081", []string{"45.33.0.1", "this host's own address"}},
		{"ssh user@lan", "ssh me@10.99.0.2", []string{"10.99.0.2", "a private address", addrKey + "10.99.0.2\"]"}},
		{"ssh -p", "ssh -i key -o BatchMode=yes -p 2222 me@127.0.0.1 echo ok", []string{"127.0.0.1:2222", hostKey + "2222]"}},
		{"ssh -p joined, no user", "ssh -vp2222 127.0.0.1", []string{"127.0.0.1:2222", hostKey + "2222]"}},
		{"ssh default port", "ssh -F cfg 127.0.0.1 curl http://93.184.0.2/", []string{"127.0.0.1:22", hostKey + "22]"}},
		{"ssh URL", "ssh -p 1 ssh://me@127.0.0.1:2200", []string{"127.0.0.1:2200", hostKey + "2200]"}},
		{"ssh granted port", "ssh -p 4873 127.0.0.1", nil},
		{"ssh internet, key named like an address", "ssh -i 10.99.0.2 -p 22 93.184.0.2", nil},
		{"granted port", "curl http://127.0.0.1:4873/", nil},
		{"exempt prefix", "curl http://10.8.1.2/", nil},
		{"internet", "curl -f http://93.184.0.2/missing", nil},
		{"internet by name", "curl -f https://example.com/", nil},
		{"no destination", "false", nil},
		{"not a name", "git commit --author 'A <a@b.c>' -m x", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := *open // its own count of lookups
			c.Open = &o
			got := Lines(tc.cmd, c)
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("got %q, want no line", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %q, want one line", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("%q lacks %q", got[0], w)
				}
			}
		})
	}
	// The control: the same command with no OpenNet (the host's
	// network, or another mode) gets no such line.
	if got := Lines("curl http://169.254.169.254/", Context{Workspace: "/w", Cwd: "/w"}); len(got) != 0 {
		t.Errorf("without open's namespace: %q", got)
	}
}
