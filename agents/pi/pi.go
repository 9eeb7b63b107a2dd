// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package pi is the adapter for the Pi coding agent. Pi spawns its
// shellPath setting, which a project's .pi/settings.json can override, so
// the route is our own extension, loaded with -e, that registers the
// bash tool (and the `!` user commands) on the session's shim, with a
// per-session agent directory whose settings.json names the shim too
// (docs/agents.md §6).
package pi

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// extension is the TypeScript extension written into the session.
//
//go:embed lite-sandbox.ts
var extension []byte

// Agent is the Pi adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "pi".
func (Agent) Name() string { return info.Name }

// info is the pi CLI.
var info = agents.Info{Name: "pi", Binary: "pi", Install: "npm install -g @earendil-works/pi-coding-agent"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `pi --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// major returns the major version of a `pi --version` line, or -1.
func major(v string) int {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexAny(v, ". "); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return n
}

// userAgentDir is the user's own agent directory: $PI_CODING_AGENT_DIR,
// else ~/.pi/agent.
func userAgentDir(s agents.Session) string {
	if d := s.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d
	}
	return filepath.Join(s.Home, ".pi", "agent")
}

// userState is what stays the user's in the per-session agent directory:
// credentials (which pi refreshes), models and sessions, linked.
var userState = []string{"auth.json", "models.json", "sessions"}

// Settings returns the session's settings.json: the user's own settings
// with shellPath set to the shim and project trust off (1.x reads
// defaultProjectTrust only from the agent directory). Packages and
// extensions from the user's settings are not loaded (--no-extensions,
// --offline).
func Settings(userDir, shim string) ([]byte, error) {
	v := map[string]any{}
	if b, err := os.ReadFile(filepath.Join(userDir, "settings.json")); err == nil {
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("pi: %s: %w", filepath.Join(userDir, "settings.json"), err)
		}
	}
	v["shellPath"] = shim
	v["defaultProjectTrust"] = "never"
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("pi settings: %w", err)
	}
	return append(b, '\n'), nil
}

// Flags are pi's routing flags for a version:
//   - --no-extensions: no project or global extension runs Node code in
//     the pi process (A4), and none can register bash first;
//   - -e <ours>: loads even with --no-extensions, and first;
//   - --offline: a project's packages/npmCommand settings cannot make pi
//     run an installer at start (A4);
//   - on 1.x, --no-approve (project settings, extensions and MCP of an
//     untrusted project are skipped) and --no-mcp (MCP servers are
//     spawned outside the sandbox). 0.x rejects both.
func Flags(ext string, major int) []string {
	f := []string{"--no-extensions", "-e", ext, "--offline"}
	if major >= 1 {
		f = append(f, "--no-approve", "--no-mcp")
	}
	return f
}

// Prepare writes the extension and the agent directory, and puts the
// flags before the user's arguments.
func (Agent) Prepare(s agents.Session) (agents.Plan, error) {
	major := major(s.Agent.Version)
	if major < 0 {
		return agents.Plan{}, fmt.Errorf("pi: cannot read the version from %q (pi --version)", s.Agent.Version)
	}
	userDir := userAgentDir(s)
	settings, err := Settings(userDir, s.Shim)
	if err != nil {
		return agents.Plan{}, err
	}
	agentDir := filepath.Join(s.Dir, "pi", "agent")
	ext := filepath.Join(s.Dir, "pi", "lite-sandbox.ts")
	p := agents.Plan{
		Argv: append(append([]string{s.Agent.Path}, Flags(ext, major)...), s.Args...),
		Env:  []string{"PI_CODING_AGENT_DIR=" + agentDir, "PI_OFFLINE=1", envExe + "=" + s.Exe},
		Files: []agents.File{
			{Path: ext, Content: extension},
			{Path: filepath.Join(agentDir, "settings.json"), Content: settings},
		},
	}
	for _, n := range userState {
		src := filepath.Join(userDir, n)
		// In the ring the user's sessions/ is made before Pi starts
		// (State.CreateDirs): Pi cannot make it in the read-only home, and
		// a history saved in the session's own agent dir is gone at its end.
		if _, err := os.Lstat(src); err == nil || n == "sessions" && s.Ring {
			p.Files = append(p.Files, agents.File{Path: filepath.Join(agentDir, n), Link: src})
		}
	}
	return p, nil
}
