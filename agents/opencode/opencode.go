// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package opencode is the adapter for opencode (the npm package
// opencode-ai, a native binary). Its bash tool spawns `SHELL -c CMD`,
// the shell taken from its config key `shell`, else $SHELL, else bash on
// PATH; its terminal and `!cmd` run `bash -l -c SCRIPT opencode CWD`
// (measured in 1.18.33's bundle). The adapter passes its own config in
// OPENCODE_CONFIG_CONTENT, which opencode merges after the user's and
// the project's files (opencode.json, .opencode/): `shell` is the shim,
// so no project file can name another shell, and OPENCODE_PERMISSION
// (merged last of all) lets the bash tool run without opencode's own
// prompt, since the sandbox judges each command. OPENCODE_PURE keeps
// plugins (the user's and a repository's .opencode/plugins, code that
// would run in opencode's own process) from loading (docs/agents.md §10).
package opencode

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Agent is the opencode adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "opencode".
func (Agent) Name() string { return info.Name }

// info is the opencode CLI.
var info = agents.Info{Name: "opencode", Binary: "opencode", Install: "npm install -g opencode-ai"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `opencode --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// Prepare sets the variables that make the shim opencode's shell and
// our sandbox the one in force; it writes no file.
func (Agent) Prepare(s agents.Session) (agents.Plan, error) {
	cfg, err := overlay(s.Getenv("OPENCODE_CONFIG_CONTENT"), map[string]any{
		"shell": s.Shim,
		// An update would run npm on the host's install; in the ring it
		// fails anyway.
		"autoupdate": false,
	})
	if err != nil {
		return agents.Plan{}, fmt.Errorf("opencode: OPENCODE_CONFIG_CONTENT: %w", err)
	}
	perm, err := overlay(s.Getenv("OPENCODE_PERMISSION"), map[string]any{"bash": "allow"})
	if err != nil {
		return agents.Plan{}, fmt.Errorf("opencode: OPENCODE_PERMISSION: %w", err)
	}
	return agents.Plan{
		Argv: append([]string{s.Agent.Path}, s.Args...),
		Env: []string{
			"OPENCODE_CONFIG_CONTENT=" + cfg,
			"OPENCODE_PERMISSION=" + perm,
			"OPENCODE_PURE=1",
			"OPENCODE_DISABLE_AUTOUPDATE=1",
		},
	}, nil
}

// overlay returns the JSON object doc (the user's own, or "") with keys
// set over it: the user's inline config keeps working, ours wins.
func overlay(doc string, keys map[string]any) (string, error) {
	v := map[string]any{}
	if doc != "" {
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			return "", err
		}
		if v == nil {
			v = map[string]any{}
		}
	}
	for k, val := range keys {
		v[k] = val
	}
	b, err := json.Marshal(v)
	return string(b), err
}
