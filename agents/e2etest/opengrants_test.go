// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// grantProbes are the destinations of TestOpenNetworkGrants, in the
// neighbourhood of opennet_test.go: a granted and an ungranted port of
// the host's loopback, a LAN host named by sandbox.allow_addresses, and
// neighbours it does not name (the metadata address on the same LAN
// host's namespace, the host's own LAN address).
var grantProbes = []struct {
	label, addr string
	granted     bool
}{
	{"loopback-granted", "127.0.0.1:4873", true},
	{"loopback-other", "127.0.0.1:5432", false},
	{"lan-granted", "192.168.50.2:80", true},
	{"metadata", "169.254.169.254:80", false},
	{"host-lan-addr", "192.168.50.1:8081", false},
}

// TestOpenNetworkGrants (#27): under network = "open", through the real
// lite-sandbox run and a session command (launch exec), as root and as
// nobody, sandbox.host_ports = [4873] makes the host's 127.0.0.1:4873
// reachable at 127.0.0.1:4873 inside and sandbox.allow_addresses =
// ["192.168.50.2"] takes that LAN host out of the prohibit routes; the
// host's other loopback port, the metadata address and the host's own
// LAN address stay unreachable. Controls: the same probe bare reaches
// every destination, and without the grants neither granted one is
// reached (so the grants, not something else, opened them).
func TestOpenNetworkGrants(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("the test makes its network namespaces as root")
	}
	for _, p := range []string{"slirp4netns", "ip", "unshare", "nsenter"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (scripts/deps installs slirp4netns)", p)
		}
	}
	h := newHood(t)
	for _, p := range grantProbes {
		pid, addr := h.host, p.addr
		switch p.label {
		case "lan-granted", "metadata":
			pid = h.lan
		case "host-lan-addr":
			addr = "0.0.0.0:8081"
		}
		go serveLabel(listenIn(t, pid, addr), p.label)
	}
	users(t, func(t *testing.T, e *env) {
		h.enter(e)
		e.write("probe.sh", grantScript())
		e.chownTree()
		bare := exec.Command("bash", "probe.sh")
		bare.Dir, bare.Env = e.ws, e.vars
		e.credential(bare)
		e.wrap(bare)
		out, err := bare.CombinedOutput()
		for _, p := range grantProbes {
			if err != nil || !reached(string(out), p.label) {
				t.Fatalf("control: bare, %s (%s) was not reached: %v\n%s", p.addr, p.label, err, out)
			}
		}
		// Without the grants: neither granted destination.
		out2, errs, code := h.probe(e, "run", nil)
		for _, p := range grantProbes {
			if code != 0 || reached(out2, p.label) {
				t.Errorf("run, open without grants: %s (%s) reached or probe failed: exit %d\n%s\n%s", p.addr, p.label, code, out2, errs)
			}
		}
		e.write("~/.config/lite-sandbox/config.toml", "[sandbox]\nallow_addresses = [\"192.168.50.2\"]\nhost_ports = [4873]\n")
		for _, where := range []string{"run", "session"} {
			out, errs, code := h.probe(e, where, nil)
			if code != 0 {
				t.Fatalf("%s: probe.sh: exit %d\n%s\n%s", where, code, out, errs)
			}
			for _, p := range grantProbes {
				if got := reached(out, p.label); got != p.granted {
					t.Errorf("%s, open with grants: %s (%s) reached %v, want %v\n%s\n%s", where, p.addr, p.label, got, p.granted, out, errs)
				}
			}
		}
	})
}

// grantScript probes every grantProbes destination with bash's
// /dev/tcp, printing label=the first line it got.
func grantScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	for _, p := range grantProbes {
		host, port, _ := strings.Cut(p.addr, ":")
		fmt.Fprintf(&b, "echo \"%s=$(timeout 20 bash -c 'exec 3<>/dev/tcp/%s/%s && head -n1 <&3' 2>&1)\"\n", p.label, host, port)
	}
	return b.String()
}
