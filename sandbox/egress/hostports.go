// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"fmt"
	"os"
	"slices"
	"strconv"
)

// EnvForwardOnly, beside [EnvSocket] and [EnvForward], tells
// `lite-sandbox __confine` to start only the host-port forward, not the
// proxy bridge: network = "open" with sandbox.host_ports, where the
// command reaches the internet through its own namespace and the proxy
// socket serves only the granted host loopback ports (docs/egress.md
// "Grants under open"). It is removed from the program's environment.
const EnvForwardOnly = "LITE_SANDBOX_EGRESS_FORWARD_ONLY"

// HostPortsConfig is the rules of a proxy that reaches the host's
// loopback on exactly ports and nothing else: what the agent ring's
// agent.host_ports add to its proxy, and the whole of the command
// sandbox's sandbox.host_ports proxy.
func HostPortsConfig(ports []int) Config {
	var c Config
	for _, p := range ports {
		c.AllowDomains = appendNew(c.AllowDomains, "127.0.0.1", "localhost")
		c.AllowAddresses = appendNew(c.AllowAddresses, "127.0.0.1:"+strconv.Itoa(p), "[::1]:"+strconv.Itoa(p))
	}
	return c
}

func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// ServeHostPorts serves, on a new socket sock, a proxy that connects to
// 127.0.0.1:PORT of this host for each of ports and refuses everything
// else; record, when set, hears each decision. It returns a stop
// function that closes and removes the socket.
func ServeHostPorts(sock string, ports []int, record func(Decision)) (func(), error) {
	rules, err := Compile(HostPortsConfig(ports))
	if err != nil {
		return nil, fmt.Errorf("host ports: %w", err)
	}
	px := New(rules)
	px.LocalDirect = true
	px.Record = record
	l, err := Listen(sock)
	if err != nil {
		return nil, fmt.Errorf("host ports: %w", err)
	}
	go px.Serve(l)
	return func() { l.Close(); os.Remove(sock) }, nil
}

// HostPortsEnv is what a command sandbox's environment gains for
// sandbox.host_ports under open: the socket and the ports for the
// confinement step, which forwards them (and removes the variables).
func HostPortsEnv(env []string, sock string, ports []int) []string {
	return append(append(env, EnvSocket+"="+sock), ForwardOnlyEnv(ports)...)
}

// ForwardOnlyEnv is [HostPortsEnv] without the socket, for a caller
// that names it itself (a session's worker).
func ForwardOnlyEnv(ports []int) []string {
	return []string{EnvForward + "=" + ForwardValue(ports), EnvForwardOnly + "=1"}
}
