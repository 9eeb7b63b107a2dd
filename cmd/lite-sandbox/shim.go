// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"github.com/lite-sandbox/lite-sandbox/internal/contract"

	"github.com/lite-sandbox/lite-sandbox/shims"
)

// ShimCmd is `lite-sandbox shim -c CMD`: the same as running the binary
// under a shell's name.
type ShimCmd struct {
	Args []string `arg:"" optional:"" passthrough:"" help:"Shell arguments (-c CMD, -lc CMD, ...)."`
}

// Run judges and runs the command.
func (c *ShimCmd) Run(g *Globals, io stdio) error {
	return shims.Run(contract.ShimBinary, c.Args, g.Config, io.err)
}
