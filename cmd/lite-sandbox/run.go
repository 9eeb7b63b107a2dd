// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// RunCmd is `lite-sandbox run [flags] -- CMD [ARGS...]`.
type RunCmd struct {
	Workspace string   `help:"The workspace: read-write inside the sandbox (default: the current directory)." placeholder:"DIR"`
	Sandbox   string   `help:"auto, on or off (default: the policy's, auto)." placeholder:"MODE" enum:"auto,on,off," default:""`
	Network   string   `help:"open (the internet, not this host's loopback, LAN or metadata address), allow (only sandbox.allow_domains, through a proxy), off (loopback only) or host (this host's whole network) (default: the policy's, open)." placeholder:"MODE" enum:"open,allow,off,host," default:""`
	Domain    []string `help:"A domain the sandbox may reach (repeatable; implies --network allow): example.com, or *.example.com for the names below it." placeholder:"NAME" name:"allow-domain"`
	Command   []string `arg:"" optional:"" passthrough:"partial" help:"The command and its arguments."`
}

// Run judges and runs the command; the process ends with its status.
func (c *RunCmd) Run(g *Globals, io stdio) error {
	argv := c.Command
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	cfg, err := config.Load(config.Options{ConfigFile: g.Config, Workspace: c.Workspace, Mode: c.Sandbox, Network: c.Network, Domains: c.Domain})
	if err != nil {
		return err
	}
	s, err := shims.New(cfg, io.err)
	if err != nil {
		return err
	}
	return s.RunArgv(argv)
}
