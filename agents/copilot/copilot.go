// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package copilot is the adapter for GitHub Copilot CLI
// (@github/copilot). Measured in 1.0.102 (its native runtime and
// bundled JS): the shell tool runs `BASH --norc --noprofile -c CMD`,
// the model's command verbatim (no wrapper), where BASH is
// COPILOT_BASH_PATH, else the first of /bin/bash, /usr/bin/bash,
// /usr/local/bin/bash; never $SHELL or PATH. Its hooks (preToolUse
// and the others, in ~/.copilot/hooks/ and a trusted repository's
// .github/hooks/) run through the same bash, and a user-typed `!cmd`
// through $SHELL (the launcher's shim). So COPILOT_BASH_PATH names the
// shim, and in the agent ring every bash path is the shim anyway. Its
// own command sandbox (MXC over bubblewrap, off by default) is switched
// off for the session with --no-sandbox so that ours is the one in
// force; its self-update (which downloads a newer CLI into its package
// cache and runs it at the next start) is off with
// COPILOT_AUTO_UPDATE=false, which also makes it run the version built
// into the installed binary rather than a newer one found in the cache
// (docs/agents.md §11).
package copilot

import (
	"context"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Agent is the Copilot CLI adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "copilot".
func (Agent) Name() string { return info.Name }

// info is the copilot CLI.
var info = agents.Info{Name: "copilot", Binary: "copilot", Install: "npm install -g @github/copilot"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `copilot --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// Prepare routes the shell tool and the hooks through the shim
// (COPILOT_BASH_PATH), switches Copilot's own sandbox off for the
// session (--no-sandbox first, so the user's own arguments follow it)
// and its self-update off. A user who passes --sandbox after it gets
// Copilot's sandbox inside ours, which cannot start in the ring (no
// nested user namespaces): its commands then fail, closed.
func (Agent) Prepare(s agents.Session) (agents.Plan, error) {
	argv := append([]string{s.Agent.Path, "--no-sandbox"}, s.Args...)
	return agents.Plan{
		Argv: argv,
		Env:  []string{"COPILOT_BASH_PATH=" + s.Shim, "COPILOT_AUTO_UPDATE=false"},
	}, nil
}
