// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// LaunchCmd is `lite-sandbox launch [flags] AGENT [-- ARGS...]`.
type LaunchCmd struct {
	Workspace string        `help:"The workspace: read-write inside the sandbox (default: the current directory)." placeholder:"DIR"`
	Sandbox   string        `help:"auto, on or off (default: the policy's, auto)." placeholder:"MODE" enum:"auto,on,off," default:""`
	Network   string        `help:"open (the internet, not this host's loopback, LAN or metadata address), allow (only sandbox.allow_domains, through a proxy), off (loopback only) or host (this host's whole network) (default: the policy's, open)." placeholder:"MODE" enum:"open,allow,off,host," default:""`
	Domain    []string      `help:"A domain the sandbox may reach (repeatable; implies --network allow): example.com, or *.example.com for the names below it." placeholder:"NAME" name:"allow-domain"`
	DryRun    bool          `help:"Print the argv, environment changes and files that would be generated, and start nothing."`
	KeepHome  string        `help:"Copy the session's scratch home ($$HOME in the sandbox) to DIR when the session ends." placeholder:"DIR" type:"path"`
	AskWait   time.Duration `help:"How long a command that an ask rule holds back waits for a person's answer with lite-sandbox approve (default 0: refused at once, unless the agent's hook asks on the launcher's confirm line). At most 1h." placeholder:"DURATION" default:"0s" env:"LITE_SANDBOX_ASK_WAIT"`
	Agent     string        `arg:"" predictor:"agent" help:"exec (any program that honours $$SHELL), or an agent: ${agents}. Under exec, ${exec_line}."`
	Args      []string      `arg:"" optional:"" passthrough:"partial" help:"The program and its arguments (for exec), or the agent's own arguments."`
}

// Run opens a session, runs the program, closes the session, and ends
// with the program's exit status.
func (c *LaunchCmd) Run(g *Globals, io stdio) error {
	argv := c.Args
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	var agentErr error
	if c.Agent != "exec" {
		if _, agentErr = registry.Lookup(c.Agent); agentErr != nil {
			return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("%w, or exec", agentErr)}
		}
	} else if len(argv) == 0 {
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("no program given (usage: lite-sandbox launch exec -- PROGRAM [ARGS...])")}
	}
	if c.AskWait < 0 || c.AskWait > time.Hour {
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("--ask-wait %s: want a duration from 0s to 1h", c.AskWait)}
	}
	s, _, err := load(config.Options{ConfigFile: g.Config, Workspace: c.Workspace, Mode: c.Sandbox, Network: c.Network, Domains: c.Domain, Getenv: outsideSession})
	if err != nil {
		return err
	}
	if c.Agent == "exec" {
		if c.DryRun {
			return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("--dry-run applies to agents (exec generates nothing: it runs the program with SHELL set to the session's shim)")}
		}
		status, err := launch.RunProgram(context.Background(), launch.ProgramOptions{
			Policy:    s.Policy,
			Workspace: s.Workspace,
			Home:      s.Home,
			Mode:      s.Mode,
			Argv:      argv,
			KeepHome:  c.KeepHome,
			AskWait:   c.AskWait,
			Stdin:     os.Stdin,
			Stdout:    io.out,
			Stderr:    io.err,
		})
		if err != nil {
			return &exit.Error{Code: exit.Sandbox, Err: err}
		}
		return silentStatus(status)
	}
	a, _ := registry.Lookup(c.Agent)
	status, err := launch.RunAgent(context.Background(), launch.AgentOptions{
		Agent:     a,
		Args:      argv,
		Policy:    s.Policy,
		Workspace: s.Workspace,
		Home:      s.Home,
		Mode:      s.Mode,
		DryRun:    c.DryRun,
		KeepHome:  c.KeepHome,
		AskWait:   c.AskWait,
		Stdin:     os.Stdin,
		Stdout:    io.out,
		Stderr:    io.err,
		Environ:   outsideSessionEnviron(),
	})
	var nie *launch.NotInstalledError
	switch {
	case errors.As(err, &nie):
		return &exit.Error{Code: exit.NotFound, Err: err}
	case err != nil:
		return &exit.Error{Code: exit.Sandbox, Err: err}
	}
	return silentStatus(status)
}

// outsideSession reads the environment as if no session were open: a
// launch from inside another session's agent starts a session of its own.
func outsideSession(k string) string {
	if k == contract.EnvSession {
		return ""
	}
	return os.Getenv(k)
}

// outsideSessionEnviron is os.Environ without the session variable.
func outsideSessionEnviron() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, contract.EnvSession+"=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}
