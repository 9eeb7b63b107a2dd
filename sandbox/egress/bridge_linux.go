// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// StartBridge runs inside the sandbox, in `__confine` before the command
// starts: when env names a proxy socket ([EnvSocket]) it listens on the
// bridge's loopback ports itself (so that the command can connect the
// moment it starts, with no wait for a child), hands the listeners to a
// bridge process `exe __confine -- exe __egress-bridge SOCKET` (confined
// like any command) and returns env without the variable. Without the
// variable it returns env unchanged. The bridge dies with the sandbox:
// bwrap's PID namespace ends when the command does.
func StartBridge(exe string, env []string) ([]string, error) {
	sock, fwd, only := "", "", false
	rest := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		if v, ok := strings.CutPrefix(kv, EnvForward+"="); ok {
			fwd = v
			return true
		}
		if v, ok := strings.CutPrefix(kv, EnvForwardOnly+"="); ok {
			only = v == "1"
			return true
		}
		v, ok := strings.CutPrefix(kv, EnvSocket+"=")
		if ok {
			sock = v
		}
		return ok
	})
	if sock == "" {
		return rest, nil
	}
	ports, err := ParsePorts(fwd)
	if err != nil {
		return nil, fmt.Errorf("egress bridge: %w", err)
	}
	if only {
		// network = "open" with sandbox.host_ports: the forward alone.
		if len(ports) == 0 {
			return nil, fmt.Errorf("egress forward: %s without ports", EnvForwardOnly)
		}
		return rest, startForward(exe, sock, ports)
	}
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, port := range []int{HTTPPort, SOCKSPort} {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return nil, fmt.Errorf("egress bridge: %w", err)
		}
		f, err := l.(*net.TCPListener).File()
		l.Close()
		if err != nil {
			return nil, fmt.Errorf("egress bridge: %w", err)
		}
		files = append(files, f)
	}
	cmd := &exec.Cmd{
		Path:       exe,
		Args:       []string{exe, "__confine", "--", exe, BridgeCommand, sock},
		Env:        []string{"PATH=/usr/bin:/bin"},
		ExtraFiles: files, // 3 and 4
		Dir:        "/",
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("egress bridge: %w", err)
	}
	go cmd.Wait() // never reached: this process execs the command next
	if len(ports) > 0 {
		if err := startForward(exe, sock, ports); err != nil {
			return nil, err
		}
	}
	return rest, nil
}

// Bridge accepts on l and carries every connection to the proxy socket
// sock, until l is closed. A proxy that stops answering (the launcher
// stopped with SIGSTOP: its socket still takes connections into the
// backlog) does not hang the command: see carry.
func Bridge(l net.Listener, sock string) error {
	return newHealth(sock).serve(l)
}

// serve accepts on l and carries every connection with h.
func (h *health) serve(l net.Listener) error {
	return acceptLoop(l, func(c net.Conn) {
		go h.carry(c)
	})
}
