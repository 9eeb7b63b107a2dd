// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// networkLine is doctor's network line: the mode, and with allow the
// size of the lists (`lite-sandbox policy` prints them).
func networkLine(p *policy.Policy) string {
	sb := p.Sandbox
	if sb.Network != policy.NetworkAllow {
		return sb.Network
	}
	return fmt.Sprintf("allow (%d names in sandbox.allow_domains, %d in sandbox.deny_domains, %d entries in sandbox.allow_addresses; proxy on 127.0.0.1:%d and :%d inside)",
		len(sb.AllowDomains), len(sb.DenyDomains), len(sb.AllowAddresses), egress.HTTPPort, egress.SOCKSPort)
}
