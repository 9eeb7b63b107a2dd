// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// networkLine is doctor's network line: the mode, and with allow the
// size of the lists, the ports and the upstream proxy (`lite-sandbox
// policy` prints the lists).
func networkLine(p *policy.Policy) string {
	sb := p.Sandbox
	switch {
	case sb.Network == policy.NetworkOpen && runtime.GOOS == "linux":
		path, why := sandbox.UserNet()
		if path != "" {
			return "open (the internet through " + path + "; this host's loopback, its own addresses, the LAN, link-local (169.254.169.254) and the other special ranges are refused" + openGrants(sb) + ")"
		}
		return "open, DEGRADED: commands share this host's network (its loopback services, LAN and 169.254.169.254): " + why
	case sb.Network == policy.NetworkHost:
		return "host (commands share this host's whole network: its loopback services, LAN and 169.254.169.254)"
	case sb.Network != policy.NetworkAllow:
		return sb.Network
	}
	ports := []string{}
	for _, n := range egress.DefaultPorts {
		ports = append(ports, strconv.Itoa(int(n)))
	}
	for _, n := range sb.AllowPorts {
		ports = append(ports, strconv.Itoa(n))
	}
	upstream := "none"
	if px, err := p.EgressProxy(os.Getenv); err != nil {
		upstream = err.Error()
	} else if px.Upstream != nil {
		upstream = px.Upstream.String()
	}
	return fmt.Sprintf("allow (%d names in sandbox.allow_domains, %d in sandbox.deny_domains, %d entries in sandbox.allow_addresses; ports %s; upstream proxy %s; proxy on 127.0.0.1:%d and :%d inside)",
		len(sb.AllowDomains), len(sb.DenyDomains), len(sb.AllowAddresses), strings.Join(ports, ", "), upstream, egress.HTTPPort, egress.SOCKSPort)
}

// landlockNetworkLine is doctor's network line under the Landlock
// backend, which has no network namespace: what each mode gives at the
// kernel's Landlock ABI (docs/confinement.md, "The Landlock backend";
// docs/container.md).
func landlockNetworkLine(mode string, abi int) string {
	switch {
	case mode == policy.NetworkAllow:
		return `allow: refused with the landlock backend (the proxy's bridge needs a network namespace); use "off" or "open"`
	case mode == policy.NetworkHost:
		return "host (landlock backend: commands share this host's network, as asked)"
	case mode == policy.NetworkOpen:
		return `open (landlock backend, no network namespace: commands share this host's network, its loopback services, LAN and 169.254.169.254 included (in a container: the container's or pod's); network = "off" refuses TCP)`
	case abi < 4:
		return fmt.Sprintf("%s, NOT ENFORCED: landlock ABI %d has no TCP rules (ABI 4); commands share this host's network", mode, abi)
	}
	// The backend restricts TCP for off.
	return mode + " (landlock backend: TCP connect and bind refused; UDP and ICMP not filtered)"
}

// openGrants is what sandbox.host_ports and sandbox.allow_addresses
// open under open (docs/egress.md "Grants under open").
func openGrants(sb policy.Sandbox) string {
	if len(sb.HostPorts) == 0 && len(sb.AllowAddresses) == 0 {
		return " unless granted: sandbox.host_ports, sandbox.allow_addresses"
	}
	ports := make([]string, len(sb.HostPorts))
	for i, p := range sb.HostPorts {
		ports[i] = strconv.Itoa(p)
	}
	return fmt.Sprintf("; granted: host loopback ports [%s] (sandbox.host_ports), addresses [%s] (sandbox.allow_addresses)",
		strings.Join(ports, ", "), strings.Join(sb.AllowAddresses, ", "))
}
