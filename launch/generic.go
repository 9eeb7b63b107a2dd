// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/launch/term"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
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
	Stderr    io.Writer     // also where warnings go
	KeepHome  string        // see AgentOptions.KeepHome
	AskWait   time.Duration // see AgentOptions.AskWait
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
	if len(o.Argv) == 0 || o.Argv[0] == "" {
		return exit.NotFound, errors.New("launch exec: no program given")
	}
	return RunAgent(ctx, AgentOptions{
		Agent:     program{o.Argv},
		Policy:    o.Policy,
		Workspace: o.Workspace,
		Home:      o.Home,
		Mode:      o.Mode,
		Exe:       o.Exe,
		Stdin:     o.Stdin,
		Stdout:    o.Stdout,
		Stderr:    o.Stderr,
		KeepHome:  o.KeepHome,
		AskWait:   o.AskWait,
	})
}

// program is the adapter of `launch exec`: any program that honours
// $SHELL, started as it is. A missing program is reported when it
// starts (status 127), as a shell would.
type program struct{ argv []string }

func (program) Name() string { return "exec" }

func (program) Info() agents.Info { return agents.Info{Name: "exec"} }

func (p program) Detect(context.Context) (agents.Detected, error) {
	return agents.Detected{Path: p.argv[0]}, nil
}

func (p program) Prepare(agents.Session) (agents.Plan, error) {
	return agents.Plan{Argv: p.argv}, nil
}

// openSession freezes the policy and opens a session for the workspace
// with the launch's one spec; the session records the agent, the
// lite-sandbox binary and the agent's private temp dir (info) for its
// shims.
func openSession(ctx context.Context, p *policy.Policy, ls launchSpec, mode policy.Mode, b sandbox.Backend, info agents.Session, agent, scratchHome string, ask approval.Options, warn io.Writer) (*Session, error) {
	spec, err := ls.get()
	if err != nil {
		return nil, err
	}
	hookSpec := spec.Clone()
	spec.ScratchHome = scratchHome
	// The session directory is readable in the rings: Marshal keeps no
	// password of the upstream proxy (the session's proxies, in this
	// process, use p's).
	frozen, err := p.Marshal()
	if err != nil {
		return nil, err
	}
	// The session's questions: its judge asks, the person answers
	// (docs/validator.md §8).
	ask.Confirm, ask.IsAgent = term.Confirm, term.IsAgent
	br := approval.New(ask)
	meta := contract.Meta{Workspace: info.Workspace, Home: info.Home, Mode: string(mode), Agent: agent,
		Exe: info.Exe, AgentTmp: info.TmpDir}
	var recent *egress.Recent
	o := Options{
		Spec: spec, Backend: b, Exe: info.Exe, PolicyTOML: frozen, Meta: meta,
		Judge: func(dir, token string) (Judge, error) {
			j, err := newJudge(dir, token, frozen, meta, br, recent)
			if err != nil {
				return nil, err
			}
			// The agents' file hooks: the launch's spec and, once the
			// ring is prepared, what it shows.
			j.Spec, j.View = &hookSpec, ls.view
			return j, nil
		},
		// The agent starts while the worker does (launch ≤ +50 ms).
		Background: func(err error) {
			esc.Fprintf(warn, "lite-sandbox: the session's sandbox did not start, so its commands are refused: %v\n", err)
		},
	}
	if p.Sandbox.Network == policy.NetworkAllow {
		recent = new(egress.Recent)
		if o.Egress, err = SessionEgress(p, info.Workspace, recent); err != nil {
			return nil, fmt.Errorf("launch: %w", err)
		}
	}
	if ports := sessionHostPorts(p, spec); len(ports) > 0 {
		o.Egress, o.EgressEnv = hostPortsEgress(ports)
	}
	s, err := Open(ctx, o)
	if err != nil {
		return nil, err
	}
	if s.Notice != "" {
		esc.Fprintf(warn, "%s\n", s.Notice)
	}
	br.SetSession(filepath.Base(s.Dir))
	if s.approve, err = approval.Listen(filepath.Dir(s.Dir), filepath.Base(s.Dir), br); err != nil {
		s.Close()
		return nil, fmt.Errorf("launch: %w", err)
	}
	return s, nil
}

// newJudge is the judge of the session in dir, given in memory what the
// launcher made (#29): the frozen policy (the bytes it writes as
// policy.toml), the metadata, the session's questions and its proxy's
// recent decisions (nil without a proxy). Nothing is read back from
// the session directory.
func newJudge(dir, token string, frozen []byte, meta contract.Meta, br *approval.Broker, recent *egress.Recent) (*shims.Judge, error) {
	j, err := shims.NewJudge(dir, token, frozen, meta)
	if err != nil {
		return nil, err
	}
	j.Approvals, j.Egress = br, recent
	return j, nil
}
