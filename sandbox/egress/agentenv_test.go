// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"slices"
	"strings"
	"testing"
)

// TestAgentEnv: the ring's proxy variables replace the user's (whose
// credentials stay on the host side, #27); NO_PROXY names only the
// forwarded host ports.
func TestAgentEnv(t *testing.T) {
	t.Parallel()
	user := []string{"PATH=/bin", "HTTPS_PROXY=http://u:pw@corp:8080", "no_proxy=10.0.0.0/8,internal", "CARGO_HTTP_PROXY=http://u:pw@corp:8080"}
	env := AgentEnv(user, nil)
	all := strings.Join(env, "\n")
	for _, want := range []string{"PATH=/bin", "HTTPS_PROXY=http://127.0.0.1:3128", "https_proxy=http://127.0.0.1:3128",
		"HTTP_PROXY=http://127.0.0.1:3128", "ALL_PROXY=socks5h://127.0.0.1:1080"} {
		if !slices.Contains(env, want) {
			t.Errorf("env lacks %s: %v", want, env)
		}
	}
	if strings.Contains(all, "pw@") || strings.Contains(all, "internal") || strings.Contains(all, "NO_PROXY") || strings.Contains(all, "no_proxy") {
		t.Errorf("the user's proxy settings reached the ring: %v", env)
	}
	env = AgentEnv(user, []int{11434, 4000})
	if !slices.Contains(env, "NO_PROXY=127.0.0.1:11434,localhost:11434,127.0.0.1:4000,localhost:4000") {
		t.Errorf("NO_PROXY with forwarded ports: %v", env)
	}
	for _, tc := range []struct {
		v    string
		want []int
		err  bool
	}{{"", nil, false}, {"11434,4000,11434", []int{11434, 4000}, false}, {"3128", nil, true}, {"x", nil, true}, {"0", nil, true}} {
		got, err := ParsePorts(tc.v)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("ParsePorts(%q) = %v, %v", tc.v, got, err)
		}
	}
	if ForwardValue([]int{1, 2}) != "1,2" {
		t.Error("ForwardValue")
	}
}
