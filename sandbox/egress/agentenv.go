// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// EnvForward names the variable that tells `lite-sandbox __confine`
// which host loopback ports to forward into the sandbox (comma
// separated; agent.host_ports), through the proxy socket of
// [EnvSocket]. It is removed from the program's environment.
const EnvForward = "LITE_SANDBOX_EGRESS_FORWARD"

// ForwardCommand is the hidden subcommand that forwards the granted host
// ports inside the agent ring: `lite-sandbox __egress-forward SOCKET N`
// with N listening sockets, one per port, from descriptor 3 on.
const ForwardCommand = "__egress-forward"

// ForwardValue is [EnvForward]'s value for ports.
func ForwardValue(ports []int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ",")
}

// ParsePorts reads [EnvForward]'s value ("" is none).
func ParsePorts(v string) ([]int, error) {
	if v == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		p, err := strconv.Atoi(f)
		if err != nil || CheckPort(p) != nil || p == HTTPPort || p == SOCKSPort {
			return nil, fmt.Errorf("%s: %q is not a port to forward", EnvForward, f)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// AgentEnv returns the agent's environment in the ring (whose network
// namespace has loopback only): every proxy variable of the host's
// replaced by the ring's bridge, HTTP(S) through its HTTP port and
// ALL_PROXY as socks5h (names resolve at the proxy, there is no DNS
// inside). NO_PROXY lists only the forwarded host ports ("" when none),
// so that a client that honours a port there goes straight to the
// in-ring forward; one that does not reaches the same port through the
// proxy, which allows exactly those. The user's own proxy (with its
// credentials) is the upstream on the host side and never appears here
// (docs/ring.md "The network").
func AgentEnv(env []string, ports []int) []string {
	out := Unset(env)
	hp := "http://127.0.0.1:" + strconv.Itoa(HTTPPort)
	socks := "socks5h://127.0.0.1:" + strconv.Itoa(SOCKSPort)
	for _, kv := range [][2]string{
		{"HTTP_PROXY", hp}, {"HTTPS_PROXY", hp}, {"ALL_PROXY", socks},
		{"http_proxy", hp}, {"https_proxy", hp}, {"all_proxy", socks},
		// Node 24 and later (an MCP server the agent starts) honour
		// the variables only when asked to.
		{"NODE_USE_ENV_PROXY", "1"},
	} {
		out = append(out, kv[0]+"="+kv[1])
	}
	if len(ports) > 0 {
		var np []string
		for _, p := range ports {
			ps := strconv.Itoa(p)
			np = append(np, "127.0.0.1:"+ps, "localhost:"+ps)
		}
		v := strings.Join(np, ",")
		out = append(out, "NO_PROXY="+v, "no_proxy="+v)
	}
	return out
}
