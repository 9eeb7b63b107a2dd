// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// HookCmd is `lite-sandbox hook NAME` (an agent of registry.HookNames:
// claude, codex, crush, pi): the PreToolUse hook that `lite-sandbox
// launch` installs. It reads the hook's JSON on stdin and answers with a
// rewrite through the session's shim, or a denial with the validator's
// reason; for the agents' file tools (agents.FileHooker) with the path
// judge's reason.
type HookCmd struct {
	Agent string `arg:"" help:"${hook_agents}."`

	adapter agents.Agent
	config  *config.Config // the session's frozen policy, once loaded
	spec    *sandbox.Spec  // its sandbox, for the path judge
}

// Run answers one hook call. The session comes from the environment the
// agent passes to its hooks ($LITE_SANDBOX_SESSION); without one the
// shim falls back to $LITE_SANDBOX_WORKSPACE and the policy files, as a
// launch without a sandbox backend sets them.
func (c *HookCmd) Run(g *Globals, io stdio) error {
	if c.Agent == "ask" {
		// docs/validator.md §8: only a session's judge answers it.
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("the ask hook is answered by a session's judge, through the session's shim; it does not run on its own")}
	}
	a, err := registry.Lookup(c.Agent)
	if err != nil {
		return &exit.Error{Code: exit.Usage, Err: err}
	}
	c.adapter = a
	fh, fok := a.(agents.FileHooker)
	h, ok := a.(agents.Hooker)
	if fok {
		h = fileHooker{fh, c.judge}
	} else if !ok {
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("%s takes no hook (its routing is not hook-based)", c.Agent)}
	}
	in, err := readAll(os.Stdin)
	var out []byte
	code := 0
	if err != nil {
		out, code = h.Hook(nil, denyAll(err), "")
	} else if cfg, v, serr := load(config.Options{ConfigFile: g.Config}); serr != nil {
		// Fail closed: a hook that cannot judge denies.
		out, code = h.Hook(in, denyAll(serr), "")
	} else if shim := shimPath(); shim == "" {
		out, code = h.Hook(in, denyAll(fmt.Errorf("no session (%s is not set)", contract.EnvSession)), "")
	} else {
		c.config = cfg
		out, code = h.Hook(in, func(cmd string) agents.Verdict {
			r := v.Check(cmd)
			// An ask rule's command goes on to the shim, whose judge asks
			// a person (docs/validator.md §8); a hook has no one to ask.
			ok := r.Allowed() || (r.Decision == policy.Ask && cfg.Session != nil)
			return agents.Verdict{Allowed: ok, Message: shims.DenialLine(r, cfg.Mode, cfg.Session != nil)}
		}, shim)
	}
	io.out.Write(out)
	if code != 0 {
		return silentStatus(code)
	}
	return nil
}

// readAll reads the hook input, at most 16 MiB.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	return b, nil
}

// denyAll is a checker that denies everything with err as the reason.
func denyAll(err error) agents.Checker {
	return func(string) agents.Verdict {
		return agents.Verdict{Message: esc.Sprintf("lite-sandbox: the hook could not judge the command, so it was not run: %v", err)}
	}
}

// shimPath is the session's shim: <session>/bin/bash, else
// $LITE_SANDBOX_SHIM (a launch without a worker).
func shimPath() string {
	if d := os.Getenv(contract.EnvSession); d != "" {
		return contract.Shim(d)
	}
	return os.Getenv(contract.EnvShim)
}
