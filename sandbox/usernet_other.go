// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package sandbox

import "os/exec"

// userNet is Linux's (usernet_linux.go).
type userNet struct{}

// Start starts cmd; only Linux connects a user-space stack.
func (p *Prepared) Start(cmd *exec.Cmd) (stop func(), err error) {
	return func() {}, cmd.Start()
}

func tunUsable() string { return "" }
