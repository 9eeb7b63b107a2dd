// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package config loads what one run of lite-sandbox works with: the
// effective policy, the workspace, the home and working directories and
// the sandbox mode, from the flags, the environment and the policy files,
// or, inside a session, from the session's frozen copy. The shim, `run`,
// `check`, `doctor`, `policy`, `launch` and the hook command all start
// here.
package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// Options say where a run gets its settings. Empty fields fall back to
// the environment, then to defaults.
type Options struct {
	ConfigFile string // policy file; else $LITE_SANDBOX_CONFIG, else XDG
	Workspace  string // else $LITE_SANDBOX_WORKSPACE, else Cwd
	Mode       string // auto, on or off; else $LITE_SANDBOX_MODE, else the policy's
	Network    string // open, allow or off; else the policy's
	Cwd        string // else the process's working directory
	Getenv     func(string) string

	// Domains are --allow-domain names, added to sandbox.allow_domains;
	// they imply network = "allow" when Network is empty.
	Domains []string
}

// Config is one run's settings.
type Config struct {
	Policy    *policy.Policy
	Workspace string // absolute, symlinks resolved
	Home      string
	Cwd       string
	Mode      policy.Mode
	// Session is set inside a session ($LITE_SANDBOX_SESSION): the
	// policy and places above are its frozen ones.
	Session *contract.Attached
	// Agent is the launched agent's name (the session's, else
	// $LITE_SANDBOX_AGENT); "" when lite-sandbox did not launch one.
	Agent string
	// Getenv reads the environment the configuration came from.
	Getenv func(string) string
	// Exe and AgentTmp are the session's [contract.Meta] ones ("" outside
	// a session).
	Exe, AgentTmp string
}

// Load loads the configuration. Errors are *exit.Error: a bad policy file
// has exit.Config, a bad flag exit.Usage, a broken session exit.Sandbox.
func Load(o Options) (*Config, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cwd := o.Cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("working directory: %w", err)}
		}
	}
	dir := getenv(contract.EnvSession)
	if dir == "" && o.Getenv == nil {
		// A shell of the agent ring started with a cleared environment
		// (an MCP server of Codex's) still belongs to the ring's session.
		dir = contract.RingSession()
	}
	if dir != "" {
		return attach(dir, cwd, getenv)
	}
	ws := o.Workspace
	if ws == "" {
		ws = getenv(contract.EnvWorkspace)
	}
	if ws == "" {
		ws = cwd
	}
	ws, err := canonical(ws)
	if err != nil {
		return nil, &exit.Error{Code: exit.Usage, Err: fmt.Errorf("workspace: %w", err)}
	}
	if cwd, err = canonical(cwd); err != nil {
		return nil, &exit.Error{Code: exit.Usage, Err: fmt.Errorf("working directory: %w", err)}
	}
	home := getenv("HOME")
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return nil, &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("home directory: %w", err)}
		}
	}
	if h, err := filepath.EvalSymlinks(home); err == nil {
		home = h
	}
	p, err := policy.Load(policy.Options{UserFile: o.ConfigFile, Workspace: ws, Getenv: getenv})
	if err != nil {
		return nil, &exit.Error{Code: exit.Config, Err: err}
	}
	if err := networkOptions(p, o); err != nil {
		return nil, err
	}
	modeName := o.Mode
	if modeName == "" {
		modeName = getenv(contract.EnvMode)
	}
	if modeName == "" {
		modeName = p.Sandbox.Mode
	}
	mode, err := policy.ParseMode(modeName)
	if err != nil {
		return nil, &exit.Error{Code: exit.Usage, Err: err}
	}
	return &Config{Policy: p, Workspace: ws, Home: home, Cwd: cwd, Mode: mode,
		Agent: getenv(contract.EnvAgent), Getenv: getenv}, nil
}

// Frozen is the configuration of the session in dir for its judge (the
// launcher's side of the per-command path), from the launcher's own
// values in memory (#29): policyTOML is what the launcher writes as
// policy.toml for the person and the rings (policy.Marshal, without the
// upstream proxy's password), parsed here from memory so that the judge
// decides on exactly the policy the rings read, and m is session.json's
// content. Nothing is read back from the session directory. Cwd is the
// workspace; each command brings its own.
func Frozen(dir string, policyTOML []byte, m contract.Meta) (*Config, error) {
	a := &contract.Attached{Dir: dir, Socket: filepath.Join(dir, contract.SocketName), PolicyTOML: policyTOML}
	c, err := frozen(a, m, m.Workspace, os.Getenv)
	if err != nil {
		return nil, err
	}
	c.Cwd = c.Workspace
	return c, nil
}

// attach loads a session's configuration: its frozen policy and places,
// whatever the environment or the workspace's files say now, so that
// nothing changes the policy mid-session. Any problem fails closed.
func attach(dir, cwd string, getenv func(string) string) (*Config, error) {
	a, err := contract.Attach(dir)
	if err != nil {
		return nil, &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("session: %w", err)}
	}
	var m contract.Meta
	if err := a.DecodeMeta(&m); err != nil {
		return nil, &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("session: %w", err)}
	}
	if c, err := canonical(cwd); err == nil {
		cwd = c
	}
	return frozen(a, m, cwd, getenv)
}

// frozen is the configuration of session a, whose metadata is m.
func frozen(a *contract.Attached, m contract.Meta, cwd string, getenv func(string) string) (*Config, error) {
	p, err := policy.LoadFrozen(filepath.Join(a.Dir, contract.PolicyName), a.PolicyTOML)
	if err != nil {
		return nil, &exit.Error{Code: exit.Config, Err: fmt.Errorf("session: %w", err)}
	}
	mode, err := policy.ParseMode(m.Mode)
	if err != nil {
		return nil, &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("session: %w", err)}
	}
	return &Config{Policy: p, Workspace: m.Workspace, Home: m.Home, Cwd: cwd, Mode: mode,
		Session: a, Agent: m.Agent, Getenv: getenv, Exe: m.Exe, AgentTmp: m.AgentTmp}, nil
}

// Validator compiles the policy's rules for this run's places. A
// session's policy was checked (its rules' examples) when the launcher
// froze it, so it is only compiled.
func (c *Config) Validator() (*validator.Validator, error) {
	env := validator.Env{Workspace: c.Workspace, Home: c.Home, Cwd: c.Cwd, Tmpdir: tmpdir(c.Mode, c.Getenv),
		Unsandboxed: c.Session == nil && Unsandboxed(c.Mode), Scripts: workspaceScripts(c.Workspace)}
	if c.Session != nil {
		v, err := validator.NewChecked(c.Policy, env)
		if err != nil {
			return nil, &exit.Error{Code: exit.Config, Err: fmt.Errorf("session policy: %w", err)}
		}
		return v, nil
	}
	v, err := newValidator(c.Policy, env)
	if err != nil {
		return nil, &exit.Error{Code: exit.Config, Err: fmt.Errorf("policy: %w", err)}
	}
	return v, nil
}

// canonical makes p an absolute directory path with symlinks resolved.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", p)
	}
	return real, nil
}
