// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"os"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/shims"
)

// LaunchCmd is `lite-sandbox launch [flags] AGENT [-- ARGS...]`.
type LaunchCmd struct {
	Workspace string   `help:"The workspace: read-write inside the sandbox (default: the current directory)." placeholder:"DIR"`
	Sandbox   string   `help:"auto, on or off (default: the policy's, auto)." placeholder:"MODE" enum:"auto,on,off," default:""`
	Agent     string   `arg:"" help:"exec (any program that honours $$SHELL), or an agent: claude, codex, crush, pi."`
	Args      []string `arg:"" optional:"" passthrough:"partial" help:"The program and its arguments (for exec), or the agent's own arguments."`
}

// Run opens a session, runs the program, closes the session, and ends
// with the program's exit status.
func (c *LaunchCmd) Run(g *Globals, io stdio) error {
	argv := c.Args
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if c.Agent != "exec" {
		a, err := agents.Lookup(c.Agent)
		if err != nil {
			return &shims.ExitError{Code: shims.ExitUsage, Err: fmt.Errorf("%w, or exec", err)}
		}
		return &shims.ExitError{Code: shims.ExitUsage, Err: fmt.Errorf("the %s adapter is not available yet; agents that honour $SHELL run with: lite-sandbox launch exec -- %s", a.Name, a.Binary)}
	}
	if len(argv) == 0 {
		return &shims.ExitError{Code: shims.ExitUsage, Err: fmt.Errorf("no program given (usage: lite-sandbox launch exec -- PROGRAM [ARGS...])")}
	}
	s, err := shims.New(shims.Options{ConfigFile: g.Config, Workspace: c.Workspace, Mode: c.Sandbox, Stderr: io.err, Getenv: outsideSession})
	if err != nil {
		return err
	}
	status, err := launch.RunProgram(context.Background(), launch.ProgramOptions{
		Policy:    s.Policy,
		Workspace: s.Workspace,
		Home:      s.Home,
		Mode:      s.Mode,
		Argv:      argv,
		Stdin:     os.Stdin,
		Stdout:    io.out,
		Stderr:    io.err,
	})
	if err != nil {
		return &shims.ExitError{Code: shims.ExitSandbox, Err: err}
	}
	return silentStatus(status)
}

// outsideSession reads the environment as if no session were open: a
// launch from inside another session's agent starts a session of its own.
func outsideSession(k string) string {
	if k == launch.EnvSession {
		return ""
	}
	return os.Getenv(k)
}
