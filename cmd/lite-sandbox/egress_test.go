// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestNetworkLines (#27): doctor names the grants under open.
func TestNetworkLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sb   policy.Sandbox
		want string
	}{
		{policy.Sandbox{}, "unless granted: sandbox.host_ports, sandbox.allow_addresses"},
		{policy.Sandbox{HostPorts: []int{4873}, AllowAddresses: []string{"192.168.1.20"}}, "host loopback ports [4873] (sandbox.host_ports), addresses [192.168.1.20]"},
	} {
		if got := openGrants(tc.sb); !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.sb, got, tc.want)
		}
	}
}
