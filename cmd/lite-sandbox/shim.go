// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"io"

	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// ShimCmd is `lite-sandbox shim -c CMD`: the same as running the binary
// under a shell's name.
type ShimCmd struct {
	Args []string `arg:"" optional:"" passthrough:"" help:"Shell arguments (-c CMD, -lc CMD, ...)."`
}

// Run judges and runs the command.
func (c *ShimCmd) Run(g *Globals, io stdio) error {
	return runShim("lite-sandbox-shim", c.Args, g.Config, io.err)
}

// runShim runs the shim for the shell named argv0.
func runShim(argv0 string, args []string, configFile string, stderr io.Writer) error {
	c, err := config.Load(config.Options{ConfigFile: configFile})
	if err != nil {
		return err
	}
	s, err := shims.New(c, stderr)
	if err != nil {
		return err
	}
	return s.RunShellAs(argv0, args)
}
