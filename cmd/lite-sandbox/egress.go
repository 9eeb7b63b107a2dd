// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
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
	if sb.Network != policy.NetworkAllow {
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
