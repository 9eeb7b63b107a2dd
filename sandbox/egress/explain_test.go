// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestExplainGaps: the explanation gaps of #27, point 4, each beside
// the case that keeps its old line (the control).
func TestExplainGaps(t *testing.T) {
	t.Parallel()
	now := time.Now()
	allowed := Decision{Time: now, Command: "me", Host: "ok.example", Port: 443, Result: ResultAllow, Via: "connect"}
	other := Decision{Time: now, Host: "other.example", Port: 443, Result: ResultRefused, Key: keyAllowDomains,
		Reason: "the domain is not in sandbox.allow_domains", Via: "connect"}
	auth := Decision{Time: now, Command: "me", Host: "ok.example", Port: 443, Result: ResultFailed, Key: keyUpstreamProxy,
		Reason: (&upstreamAuthError{addr: "10.0.0.1:3128"}).Error(), Via: "connect"}
	for _, c := range []struct {
		name, cmd    string
		a            Activity
		want, absent []string
	}{
		{name: "own connections allowed: another command's refusal is not its news", cmd: "curl https://ok.example/; false",
			a: Activity{Own: []Decision{allowed}, Unattributed: []Decision{other}}, absent: []string{"other.example"}},
		{name: "control: no connection of its own: the unattributed refusal", cmd: "java -jar x.jar",
			a: Activity{Unattributed: []Decision{other}}, want: []string{"other.example:443 was refused"}},
		{name: "407: the upstream wants credentials, not a name check", cmd: "curl https://ok.example/",
			a: Activity{Own: []Decision{auth}}, want: []string{"needs credentials", "sandbox.upstream_proxy"}, absent: []string{"check the name"}},
		{name: "python's own socket", cmd: `/usr/bin/python3 -c "import socket; socket.create_connection(('192.0.2.1', 80))"`,
			want: []string{"Python's socket module", "127.0.0.1:1080"}},
		{name: "control: python without a socket of its own", cmd: "python3 -m pytest", want: nil},
		{name: "ssh", cmd: "ssh -o BatchMode=yes git@example.com", want: []string{"ssh are not available"}},
		{name: "refused before a target", cmd: "curl x", a: Activity{Own: []Decision{{Command: "me", Host: NoTarget,
			Result: ResultRefused, Reason: "SOCKS5: only CONNECT is supported", Via: "socks5"}}},
			want: []string{"refused a connection before it named a target: SOCKS5: only CONNECT"}},
	} {
		got := strings.Join(Explain(c.a, c.cmd, 2), "\n")
		if c.want == nil && c.absent == nil && got != "" {
			t.Errorf("%s: %q, want nothing", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		for _, w := range c.absent {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q holds %q", c.name, got, w)
			}
		}
	}
}

// TestSpecialLiteralAdvice: an IP literal that allow_domains does not
// name and that is special is refused with allow_addresses named first
// (allow_domains alone would not let it through); a public literal keeps
// the allow_domains advice (the control).
func TestSpecialLiteralAdvice(t *testing.T) {
	t.Parallel()
	r, err := NewRules([]string{"example.com"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := New(r)
	p.init()
	for _, c := range []struct{ host, first, reason string }{
		{"169.254.169.254", keyAllowAddresses, "a link-local address"},
		{"10.1.2.3", keyAllowAddresses, "a private address"},
		{publicAddr, keyAllowDomains, "allow_domains names it"},
	} {
		_, _, ref := p.vet(context.Background(), c.host, 80)
		if ref == nil {
			t.Fatalf("%s: not refused", c.host)
		}
		line := refusalLine(Decision{Host: ref.Host, Port: 80, Key: ref.Key, Reason: ref.Reason, Result: ResultRefused})
		fix := line[strings.Index(line, "(to allow"):]
		i := strings.Index(fix, c.first)
		if !strings.Contains(line, c.reason) || i < 0 || c.first == keyAllowAddresses && i > strings.Index(fix, keyAllowDomains) {
			t.Errorf("%s: %q, want the reason %q and %s first", c.host, line, c.reason, c.first)
		}
	}
}
