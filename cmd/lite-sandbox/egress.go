// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"path/filepath"

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

// startBridge starts the egress bridge when the environment names a
// proxy socket, and returns the command's environment without it.
func startBridge(env []string) ([]string, error) {
	if os.Getenv(egress.EnvSocket) == "" {
		return env, nil
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		exe = "/proc/self/exe"
	}
	return egress.StartBridge(exe, env)
}
