// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// PolicyCmd is `lite-sandbox policy`.
type PolicyCmd struct {
	Workspace string `help:"Include this workspace's .lite-sandbox.toml (default: the current directory)." placeholder:"DIR"`
}

// Run prints the merged policy.
func (c *PolicyCmd) Run(g *Globals, io stdio) error {
	s, _, err := load(config.Options{ConfigFile: g.Config, Workspace: c.Workspace})
	if err != nil {
		return err
	}
	b, err := s.Policy.Marshal()
	if err != nil {
		return err
	}
	_, err = io.out.Write(b)
	return err
}
