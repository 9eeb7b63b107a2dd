// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package egress

import (
	"errors"
	"net"
)

// StartBridge is Linux-only: elsewhere there is no network namespace to
// bridge into, and network = "allow" is refused before a command runs.
func StartBridge(exe string, env []string) ([]string, error) {
	for _, kv := range env {
		if len(kv) > len(EnvSocket) && kv[:len(EnvSocket)+1] == EnvSocket+"=" {
			return nil, errors.New("egress bridge: network = \"allow\" needs Linux")
		}
	}
	return env, nil
}

// ServeForward is Linux-only.
func ServeForward(sock, count string) error {
	return errors.New("egress forward: the agent ring needs Linux")
}

// ServeBridge is Linux-only.
func ServeBridge(sock string) error {
	return errors.New("egress bridge: network = \"allow\" needs Linux")
}

// Bridge is Linux-only.
func Bridge(l net.Listener, sock string) error {
	return errors.New("egress bridge: network = \"allow\" needs Linux")
}
