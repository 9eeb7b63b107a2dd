// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// Meta is what a session tells its shims beside the frozen policy
// (session.json).
type Meta struct {
	Workspace string `json:"workspace"`
	Home      string `json:"home"`
	Mode      string `json:"mode"`
}

// Environment variables a shim reads when it runs outside a session
// (they match the shims package's).
const (
	envWorkspace = "LITE_SANDBOX_WORKSPACE"
	envMode      = "LITE_SANDBOX_MODE"
)

// ProgramOptions describe one `lite-sandbox launch exec` run.
type ProgramOptions struct {
	Policy    *policy.Policy
	Workspace string // absolute, symlinks resolved
	Home      string
	Mode      policy.Mode
	Argv      []string // the program, started outside the sandbox
	Exe       string   // the lite-sandbox binary; default os.Executable
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer // also where warnings go
}

// RunProgram opens a session (when the sandbox is on), starts the
// program with SHELL pointing at the session's shim, and closes the
// session when the program exits, on every path. It returns the
// program's exit status.
//
// Without a sandbox (mode off, or no backend in mode auto) there is no
// worker: SHELL still points at the shim, which then validates each
// command and runs it as `lite-sandbox run` would, warning loudly in
// mode auto.
func RunProgram(ctx context.Context, o ProgramOptions) (int, error) {
	exe := o.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return -1, fmt.Errorf("launch: find own binary: %w", err)
		}
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	b, derr := sandbox.Detect()
	st, err := sandbox.Resolve(o.Mode, b, derr, o.Workspace, o.Home)
	if err != nil {
		return -1, err
	}
	switch st.State {
	case sandbox.StateUnavailable:
		fmt.Fprintf(o.Stderr, "lite-sandbox: WARNING: no sandbox: %s; commands will run UNSANDBOXED (use --sandbox on to refuse instead)\n", st.Reason)
	case sandbox.StateDegraded:
		fmt.Fprintf(o.Stderr, "lite-sandbox: WARNING: sandbox degraded: %s\n", st.Reason)
	}
	if !st.Sandboxed() {
		return runUnsandboxed(ctx, o, exe)
	}
	s, err := openSession(ctx, o.Policy, o.Workspace, o.Home, o.Mode, b, exe)
	if err != nil {
		return -1, err
	}
	defer s.Close()
	return Start(ctx, AgentEnv(os.Environ(), s.Dir), o.Argv, o.Stdin, o.Stdout, o.Stderr)
}

// openSession freezes the policy and opens a session for the workspace,
// with extra read-write paths (an adapter's shared directory) added to
// the sandbox.
func openSession(ctx context.Context, p *policy.Policy, workspace, home string, mode policy.Mode, b sandbox.Backend, exe string, write ...string) (*Session, error) {
	spec, err := sandbox.FromPolicy(p, workspace, home, "")
	if err != nil {
		return nil, fmt.Errorf("launch: %w", err)
	}
	spec.Write = append(spec.Write, write...)
	frozen, err := p.Marshal()
	if err != nil {
		return nil, err
	}
	return Open(ctx, Options{
		Spec:       spec,
		Backend:    b,
		Exe:        exe,
		PolicyTOML: frozen,
		Meta:       Meta{Workspace: workspace, Home: home, Mode: string(mode)},
	})
}

// runUnsandboxed gives the program a shim link of its own in a private
// temporary directory, and the workspace and mode through the
// environment.
func runUnsandboxed(ctx context.Context, o ProgramOptions, exe string) (int, error) {
	dir, err := os.MkdirTemp("", "lite-sandbox-shim-")
	if err != nil {
		return -1, fmt.Errorf("launch: %w", err)
	}
	defer os.RemoveAll(dir)
	shim := filepath.Join(dir, ShimPath)
	if err := os.MkdirAll(filepath.Dir(shim), 0o700); err != nil {
		return -1, fmt.Errorf("launch: %w", err)
	}
	if err := os.Symlink(exe, shim); err != nil {
		return -1, fmt.Errorf("launch: %w", err)
	}
	env := make([]string, 0, len(os.Environ())+4)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "SHELL", EnvShim, EnvSession, envWorkspace, envMode:
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "SHELL="+shim, EnvShim+"="+shim, envWorkspace+"="+o.Workspace, envMode+"="+string(o.Mode))
	return Start(ctx, env, o.Argv, o.Stdin, o.Stdout, o.Stderr)
}
