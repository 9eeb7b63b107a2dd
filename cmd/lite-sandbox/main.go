// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command lite-sandbox runs AI coding agents with every shell command
// validated and confined. This package only wires the command line to the
// packages that do the work.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"

	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/inherit"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/launch/term"
	"github.com/lite-sandbox/lite-sandbox/shims"
)

// Globals are the flags every subcommand takes.
type Globals struct {
	Config string `help:"Policy file (default: $$XDG_CONFIG_HOME/lite-sandbox/config.toml)." env:"LITE_SANDBOX_CONFIG" placeholder:"FILE"`
	// Backend reaches the probe (and a session's shims) through the
	// environment: sandbox.Probe reads it (#28).
	Backend string `help:"Sandbox backend on Linux: auto (bwrap where it can build a sandbox, else Landlock), bwrap or landlock." env:"LITE_SANDBOX_BACKEND" enum:"auto,bwrap,landlock," default:"auto" placeholder:"NAME"`
}

// CLI is the whole command line.
type CLI struct {
	Globals

	Run        RunCmd        `cmd:"" help:"Run one command under the policy, inside the OS sandbox."`
	Check      CheckCmd      `cmd:"" help:"Print the validator's decision for a command string."`
	Doctor     DoctorCmd     `cmd:"" help:"Report the sandbox backend, kernel features, policy files and agent CLIs."`
	Policy     PolicyCmd     `cmd:"" help:"Print the effective policy as TOML."`
	Launch     LaunchCmd     `cmd:"" help:"Start an agent (or any program) with its shell commands routed through the sandbox."`
	Log        LogCmd        `cmd:"" help:"Show the commands of the last session (or --session ID) from the audit log."`
	Approve    ApproveCmd    `cmd:"" help:"Answer the questions of ask rules that sessions are waiting on (list, show, yes, no)."`
	Version    VersionCmd    `cmd:"" help:"Print the version."`
	Completion CompletionCmd `cmd:"" help:"Print the shell code for tab completion (bash, zsh, fish)."`
	Shim       ShimCmd       `cmd:"" hidden:"" help:"Act as the shell (what agents run through SHELL)."`
	Hook       HookCmd       `cmd:"" hidden:"" help:"Answer an agent's PreToolUse hook (installed by launch)."`
}

func main() {
	os.Exit(Main(os.Args, os.Stdout, os.Stderr))
}

// Main runs the program and returns its exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	// The per-command path (the in-sandbox steps, the session worker, the
	// shim under a shell's name), shared with the bundled shim binary,
	// dispatched before the command line so that it starts fast.
	if code, ok := shims.Dispatch(args, stderr); ok {
		return code
	}
	// The leader of an agent's pty session (term.Run) and of its ring.
	if len(args) >= 2 && args[1] == term.LeaderCommand {
		return term.ServeLeader(args[2:], stderr)
	}
	// Every command from here (launch, run, shim, hook...) starts on the
	// host: what this process inherited above stderr reaches none of
	// the sandboxes, the agent or its ring (escape class 57).
	if err := inherit.Seal(); err != nil {
		fmt.Fprintf(stderr, "lite-sandbox: %v\n", err)
		return exit.Sandbox
	}
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name("lite-sandbox"),
		kong.Description("Run an AI coding agent with every shell command validated and confined to the workspace."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitPanic(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Vars{
			"version":     version(),
			"exec_line":   launch.ExecHelp(),
			"agents":      strings.Join(registry.Names(), ", "),
			"hook_agents": strings.Join(registry.HookNames(), " or "),
		},
	)
	if err != nil {
		fmt.Fprintf(stderr, "lite-sandbox: bug: %v\n", err)
		return exit.Software
	}
	code, done := func() (code int, done bool) {
		defer func() {
			if r := recover(); r != nil {
				c, ok := r.(exitPanic)
				if !ok {
					panic(r)
				}
				code, done = int(c), true
			}
		}()
		// A completion request (COMP_LINE set by the shell) is answered
		// from the kong model, and exits.
		kongcompletion.Register(parser, completionPredictors())
		ctx, err := parser.Parse(args[1:])
		if err != nil {
			esc.Fprintf(stderr, "lite-sandbox: %v (see lite-sandbox --help)\n", err)
			return exit.Usage, true
		}
		os.Setenv("LITE_SANDBOX_BACKEND", cli.Backend)
		ctx.Bind(stdio{stdout, stderr})
		return exitCode(ctx.Run(&cli.Globals), stderr), true
	}()
	if !done {
		return 0
	}
	return code
}

// exitPanic lets kong's --help exit through Main rather than os.Exit, so
// tests can call Main.
type exitPanic int

type stdio struct {
	out, err io.Writer
}

// exitCode prints an error (one paragraph) and maps it to a status.
func exitCode(err error, stderr io.Writer) int {
	var st silentStatus
	if errors.As(err, &st) {
		return int(st)
	}
	return shims.ExitStatus(err, stderr)
}

// silentStatus is an exit status whose message was already printed.
type silentStatus int

func (s silentStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }
