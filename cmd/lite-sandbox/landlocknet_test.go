// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"strings"
	"testing"
)

// TestLandlockNetworkLine (#28): doctor's network line under the
// Landlock backend says what each mode gives without a network
// namespace, and that off is not enforced below ABI 4.
func TestLandlockNetworkLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mode string
		abi  int
		want string
	}{
		{"open", 7, "open (landlock backend, no network namespace: commands share this host's network"},
		{"host", 7, "host (landlock backend: commands share this host's network"},
		{"off", 7, "off (landlock backend: TCP connect and bind refused; UDP and ICMP not filtered)"},
		{"off", 3, "off, NOT ENFORCED: landlock ABI 3 has no TCP rules"},
		{"allow", 7, "allow: refused with the landlock backend"},
	} {
		if got := landlockNetworkLine(c.mode, c.abi); !strings.HasPrefix(got, c.want) {
			t.Errorf("landlockNetworkLine(%q, %d) = %q, want %q...", c.mode, c.abi, got, c.want)
		}
	}
}
