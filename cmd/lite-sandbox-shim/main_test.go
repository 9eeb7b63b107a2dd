// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

func TestEgressSocketName(t *testing.T) {
	if envEgressSocket != egress.EnvSocket {
		t.Errorf("envEgressSocket = %q, egress.EnvSocket = %q", envEgressSocket, egress.EnvSocket)
	}
}

// TestSmallDeps: the per-command binary links no policy, no shell parser
// and no HTTP (docs/performance.md §3), so that it starts about as fast
// as an empty Go program. Positive control: it does link the forwarder.
func TestSmallDeps(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	has := func(want string) bool {
		for _, d := range deps {
			if d == want || strings.HasPrefix(d, want+"/") {
				return true
			}
		}
		return false
	}
	for _, bad := range []string{"github.com/pelletier/go-toml/v2", "mvdan.cc/sh/v3", "net/http", "github.com/lite-sandbox/lite-sandbox/shims/policy", "github.com/lite-sandbox/lite-sandbox/sandbox/egress"} {
		if has(bad) {
			t.Errorf("lite-sandbox-shim links %s", bad)
		}
	}
	if !has("github.com/lite-sandbox/lite-sandbox/shims/forward") {
		t.Error("lite-sandbox-shim does not link shims/forward (the test is broken)")
	}
}
