// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// ServeTCP is [Net.Serve] for the Landlock ring (#28), which has no
// network namespace and no bridge: the agent's proxy listens on a port
// of the host's loopback chosen by the kernel, and the ring's Landlock
// rules let it connect to that port (and agent.host_ports) only. It
// returns the port and a stop function. Other local processes can
// reach this proxy too (it serves the agent's list only); Landlock's
// TCP rule is by port, not address (docs/ring.md "The Landlock ring").
func (n Net) ServeTCP(dir string, upstream *egress.Upstream, warn func(error)) (uint16, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, nil, fmt.Errorf("launch: ring network: %w", err)
	}
	if err := n.serveOn(l, dir, upstream, warn); err != nil {
		l.Close()
		return 0, nil, err
	}
	return uint16(l.Addr().(*net.TCPAddr).Port), func() { l.Close() }, nil
}

// Ports are the TCP ports the Landlock ring may connect to: its proxy's
// and agent.host_ports.
func (n Net) PortsTCP(proxy uint16) []uint16 {
	out := []uint16{proxy}
	for _, p := range n.Ports {
		out = append(out, uint16(p))
	}
	return out
}

// EnvTCP is [Net.Env] for the Landlock ring: the proxy variables name
// the proxy's port on the host's loopback (HTTP, CONNECT and SOCKS5 on
// one port); agent.host_ports are reached directly (NO_PROXY), their
// ports granted by Landlock.
func (n Net) EnvTCP(env []string, port uint16) []string {
	out := egress.AgentEnv(env, n.Ports)
	hp := "127.0.0.1:" + strconv.Itoa(egress.HTTPPort)
	sp := "127.0.0.1:" + strconv.Itoa(egress.SOCKSPort)
	mine := "127.0.0.1:" + strconv.Itoa(int(port))
	for i, kv := range out {
		if strings.HasSuffix(kv, hp) || strings.HasSuffix(kv, sp) {
			out[i] = strings.Replace(strings.Replace(kv, hp, mine, 1), sp, mine, 1)
		}
	}
	return out
}

// LineLandlock is the dry run's line on the Landlock ring's network.
func (n Net) LineLandlock() string {
	hosts := "none"
	if len(n.Hosts) > 0 {
		hosts = strings.Join(n.Hosts, ", ")
	}
	ports := "none"
	if len(n.Ports) > 0 {
		ports = egress.ForwardValue(n.Ports)
	}
	return fmt.Sprintf("network (landlock): no namespace; TCP connect only to the agent's proxy (a port of the host's loopback chosen at start) and agent.host_ports (%s), nothing bound; UDP and ICMP not filtered; the proxy allows: %s", ports, hosts)
}

// LandlockLacks says what the Landlock agent ring lacks beside the
// commands' list (sandbox.LandlockLine), for the session's first line,
// --dry-run and doctor (docs/ring.md "The Landlock ring").
const LandlockLacks = "landlock (no namespace): host processes visible (signals scoped), the host's /proc, TMPDIR the session's tmp; " +
	"the real home hidden but for the agent's state (read-only), its data directories and credentials: new files beside them (a lock, a rename into place) and writes to the kept data files (history, a new login) are refused, not kept; ~/.claude.json is written in place and restored after; " +
	"shells and gits not executable (its shells are the shim by its configuration); no Unix sockets below ABI 9 (the judge's connection made by the launcher); " +
	"TCP only to its proxy's port and agent.host_ports (by port, on any address), UDP not filtered"
