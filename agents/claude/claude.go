// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package claude is the adapter for Claude Code: its Bash tool spawns
// CLAUDE_CODE_SHELL, which the launcher points at the session's shim
// (<session>/bin/bash; Claude ignores a path whose name lacks "bash").
// See docs/agents.md §3.
package claude

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Agent is the Claude Code adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "claude".
func (Agent) Name() string { return info.Name }

// info is the Claude Code CLI.
var info = agents.Info{Name: "claude", Binary: "claude", Install: "npm install -g @anthropic-ai/claude-code"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `claude --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// Settings returns the JSON passed with --settings. Flag settings outrank
// the user's and the project's settings files, whose env blocks would
// otherwise override the launcher's environment (A1); hooks are off,
// since they run through /bin/sh outside the sandbox (A2), and so is
// Claude's own sandbox, which would wrap commands before the shim (A11).
// The empty CLAUDE_CODE_SHELL_PREFIX neutralises a prefix set by a
// project, which would put its own program around every command.
func Settings(s agents.Session) ([]byte, error) {
	env := map[string]string{
		"CLAUDE_CODE_SHELL":        s.Shim,
		"CLAUDE_CODE_SHELL_PREFIX": "",
	}
	// Claude tracks `cd` through the file its wrapper writes with
	// `pwd -P >| <CLAUDE_CODE_TMPDIR>/claude-XXXX-cwd` (agents.md §3.3):
	// the shim opens it there itself, so the directory is the agent's
	// private one, not shared with the sandbox.
	if s.TmpDir != "" {
		env["CLAUDE_CODE_TMPDIR"] = s.TmpDir
	}
	v := map[string]any{
		"env":             env,
		"sandbox":         map[string]any{"enabled": false},
		"disableAllHooks": true,
	}
	addFileRules(v, s)
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("claude settings: %w", err)
	}
	return b, nil
}

// Prepare puts --settings before the user's own arguments and the same
// variables in the environment.
//
// The shell snapshot (`-c -l <snapshot script>`, which sources ~/.bashrc
// and writes ~/.claude/shell-snapshots/...) runs in the sandbox, where
// the home directory is not mounted: it fails, and Claude falls back to a
// login-shell wrapper without `source` (docs/agents.md §3.3). The user's
// aliases and functions are then not available to the model's commands;
// in exchange the rc file (which often exports tokens) stays unreadable
// and no directory of the home is writable from inside.
func (a Agent) Prepare(s agents.Session) (agents.Plan, error) {
	settings, err := Settings(s)
	if err != nil {
		return agents.Plan{}, err
	}
	argv := append([]string{s.Agent.Path, "--settings", string(settings)}, s.Args...)
	env := []string{
		"CLAUDE_CODE_SHELL=" + s.Shim,
		"CLAUDE_CODE_SHELL_PREFIX=",
	}
	if s.TmpDir != "" {
		env = append(env, "CLAUDE_CODE_TMPDIR="+s.TmpDir)
	}
	return agents.Plan{Argv: argv, Env: env}, nil
}
