// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestHostAddressesRefreshedNetns: in a network namespace of its own,
// an address and a network added to an interface while the proxy runs
// are refused once the snapshot's lifetime has passed, through the real
// interface listing (no injected reader). Nothing is dialled.
func TestHostAddressesRefreshedNetns(t *testing.T) {
	ip, err := exec.LookPath("ip")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("skipping: needs root and ip(8) to make a network namespace")
	}
	type result struct {
		before, own, neighbour *refusal
		err                    string
	}
	done := make(chan result)
	go func() {
		// This thread alone enters the namespace; it is never unlocked,
		// so it ends with the goroutine rather than serve others.
		runtime.LockOSThread()
		var res result
		defer func() { done <- res }()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			res.err = "unshare: " + err.Error()
			return
		}
		r, _ := NewRules([]string{"*"}, nil, nil)
		p := &Proxy{Rules: r, Resolver: mapResolver{}}
		p.init()
		vet := func(a string) *refusal { _, _, ref := p.vet(context.Background(), a, 443); return ref }
		res.before = vet("45.1.2.3")
		for _, args := range [][]string{
			// The namespace's own loopback interface: no module needed
			// (containers often lack dummy and veth).
			{"link", "set", "lo", "up"}, {"addr", "add", "45.1.2.1/24", "dev", "lo"},
		} {
			// Forked from this thread: the command runs in its namespace.
			if out, err := exec.Command(ip, args...).CombinedOutput(); err != nil {
				res.err = "ip " + strings.Join(args, " ") + ": " + err.Error() + ": " + string(out)
				return
			}
		}
		p.hosts.mu.Lock()
		p.hosts.at = p.hosts.at.Add(-hostAddrTTL) // as if the lifetime had passed
		p.hosts.mu.Unlock()
		res.own, res.neighbour = vet("45.1.2.1"), vet("45.1.2.3")
	}()
	res := <-done
	if res.err != "" {
		t.Fatal(res.err)
	}
	if res.before != nil {
		t.Errorf("before the address was added: %v", res.before)
	}
	if res.own == nil || !strings.Contains(res.own.Reason, "this host's own") {
		t.Errorf("the host's new address: %v", res.own)
	}
	if res.neighbour == nil || !strings.Contains(res.neighbour.Reason, "network "+netip.MustParsePrefix("45.1.2.0/24").String()) {
		t.Errorf("a neighbour on the new network: %v", res.neighbour)
	}
}
