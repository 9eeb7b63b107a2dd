// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Agent is one agent's adapter: how `lite-sandbox launch NAME` finds the
// agent's CLI and routes every shell command it runs through the
// session's shim. Adapters live in agents/<name>; the launcher drives
// them (package launch).
type Agent interface {
	// Name is what `lite-sandbox launch NAME` takes.
	Name() string
	// Info says which binary is the agent's CLI and how to install it.
	Info() Info
	// Detect finds the CLI and its version. A missing CLI is an error
	// that names the install command.
	Detect(ctx context.Context) (Detected, error)
	// Prepare returns what to run: argv, environment changes and files,
	// for one session. It only computes; the launcher writes and starts.
	Prepare(s Session) (Plan, error)
}

// Hooker is implemented by agents whose routing is a hook of theirs that
// runs `lite-sandbox hook NAME` before each tool call (Codex, Crush).
type Hooker interface {
	// Hook answers one hook call: in is the hook's JSON input; check
	// judges a command string; shim is the session's shim path. It
	// returns what to print on stdout and the exit status. It never
	// fails open: any error denies the call.
	Hook(in []byte, check Checker, shim string) (out []byte, code int)
}

// Asker is implemented by agents whose hook can hold one command that
// an `ask` rule holds back until the person answers (docs/validator.md
// §8): a hook of theirs runs `lite-sandbox hook ask` through the shim
// before the command, and the session's judge asks the person on the
// launcher's own confirm line, outside the rings, then answers the
// hook.
type Asker interface {
	// AskInput reads the hook's input: the model's command and the
	// directory it will run in ("" when the input does not say).
	AskInput(in []byte) (command, cwd string, err error)
	// AskOutput is the hook's answer: [AskGoOn] lets the call go on to
	// the shim, which judges it as usual; [AskYes] runs it (the person
	// said yes, and the shim lets this one command through); [AskNo]
	// stops it, message saying why for the model.
	AskOutput(answer AskAnswer, message string) []byte
}

// AskAnswer is the hook's answer to the agent.
type AskAnswer int

// The hook's answers.
const (
	AskGoOn AskAnswer = iota // no question: the shim judges the command
	AskYes                   // the person said yes
	AskNo                    // the person said no, or nobody answered
)

// Unwrapper is implemented by agents that put a shell script of their
// own around every command of the model (Claude Code). The shim of that
// agent's sessions judges and explains the model's command inside it.
type Unwrapper interface {
	// Unwrap returns the model's command; ok is false when script (f,
	// parsed once by the shim, #19) is not exactly the wrapper's shape
	// (the shim then judges all of it).
	Unwrap(f *syntax.File, script string) (cmd string, ok bool)
}

// CwdReporter is implemented by agents whose wrapper ends by writing the
// shell's final directory to a file the agent reads back (Claude Code's
// `pwd -P >| FILE`). No directory is shared between the agent and the
// sandbox: the shim opens the file itself, on the agent's side, and the
// sandboxed wrapper writes to a descriptor instead.
type CwdReporter interface {
	// CwdFile returns the wrapper's cwd file and a function that
	// rewrites the script to write the directory to descriptor fd (which
	// nothing else in the script gets), or to nowhere when fd < 0; ok is
	// false when script is not exactly the wrapper's shape.
	CwdFile(f *syntax.File, script string) (file string, rewrite func(fd int) string, ok bool)
	// OpenCwdFile opens the cwd file on the agent's side for the shim,
	// refusing one the agent would not write (another name, another
	// directory, a link): sessionTmp is the session's private temp dir
	// for the agent ("" outside a session), getenv the command's
	// environment.
	OpenCwdFile(name, sessionTmp string, getenv func(string) string) (*os.File, error)
}

// Checker judges a command string with the session's frozen policy.
type Checker func(cmd string) Verdict

// Verdict is a Checker's answer.
type Verdict struct {
	Allowed bool
	// Message is the one line the model sees on denial
	// ("lite-sandbox: blocked by <rule>: <reason> Hint: <hint>").
	Message string
}

// Detected is an installed agent CLI.
type Detected struct {
	Path    string
	Version string // as the CLI prints it, trimmed; "" when unknown
}

// Session is what an adapter knows about the session it prepares.
type Session struct {
	// Dir is the session's private directory on the host (mode 0700);
	// Prepare's files go below it.
	Dir string
	// Shim is the shim's absolute path (<Dir>/bin/bash).
	Shim string
	// Exe is the lite-sandbox binary, for hook commands.
	Exe string
	// Workspace is the workspace (absolute, symlinks resolved).
	Workspace string
	// Home is the user's home directory.
	Home string
	// TmpDir is the agent's private temp dir (mode 0700, the
	// launcher's): never mounted into the command sandbox. Claude's
	// cwd file lives there; the shim opens it and gives the command
	// only a descriptor.
	TmpDir string
	// Agent is the detected CLI.
	Agent Detected
	// Args are the user's own arguments for the agent.
	Args []string
	// Getenv reads the launcher's environment.
	Getenv func(string) string
	// Ring says that the agent itself runs in the agent ring (#8):
	// writes outside the workspace fail and every shell is the shim.
	Ring bool
	// Prompt says that the agent runs on the launcher's terminal in a
	// ring session, whose judge asks the person on the launcher's
	// confirm line ([Asker]): an adapter then installs its ask hook.
	Prompt bool
	// Deny and Protect are the session's sandbox.deny paths and
	// protected paths (absolute, clean), for the agent's own settings
	// that explain refusals (Claude's permissions.deny).
	Deny    []string
	Protect []string
}

// Plan is what the launcher does for one agent start.
type Plan struct {
	// Argv is the agent's command line, Argv[0] its absolute path.
	Argv []string
	// Env sets variables (NAME=VALUE) in the agent's environment, after
	// the launcher's own routing variables.
	Env []string
	// Unset removes variables from the agent's environment.
	Unset []string
	// Files are written before the agent starts.
	Files []File
	// Warnings are printed to the user before the agent starts.
	Warnings []string
}

// File is one generated file.
type File struct {
	Path    string // absolute, below Session.Dir
	Content []byte
	Mode    uint32 // 0 means 0o600
	// Link, when set, makes Path a symbolic link to Link instead (for
	// the user's own credentials, which the agent may refresh).
	Link string
}

// DetectBinary looks the binary up on PATH and runs it with args to read
// its version (the first line of its output, stdout else stderr),
// within versionWait. The answer is cached per binary identity
// (version.go), so a launch runs no agent code to learn it again.
func (a Info) DetectBinary(ctx context.Context, args ...string) (Detected, error) {
	p, err := a.Path()
	if err != nil {
		return Detected{}, err
	}
	key := binaryIdentity(p, args)
	if v, ok := cachedVersion(key); ok {
		return Detected{Path: p, Version: v}, nil
	}
	d, err := probeVersion(ctx, p, args)
	if err == nil {
		storeVersion(key, d.Version)
	}
	return d, err
}

// versionWait bounds `AGENT --version`: a hang guard only. A Node CLI
// takes about a second to start on an idle machine, and many times that
// on a loaded one, which must not fail a launch (#29).
const versionWait = 2 * time.Minute

// probeVersion runs p with args and reads the first line it prints.
func probeVersion(ctx context.Context, p string, args []string) (Detected, error) {
	ctx, cancel := context.WithTimeout(ctx, versionWait)
	defer cancel()
	var stdout, stderr strings.Builder
	cmd := exec.CommandContext(ctx, p, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer within %v (a busy machine, or a CLI that hangs)", versionWait)
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return Detected{}, fmt.Errorf("%s %s: %w", p, strings.Join(args, " "), err)
	}
	// Some CLIs (pi) print their version on stderr.
	out := stdout.String()
	if strings.TrimSpace(out) == "" {
		out = stderr.String()
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return Detected{Path: p, Version: strings.TrimSpace(v)}, nil
}

// ShellQuote quotes s as one POSIX shell word: in single quotes, where
// each embedded single quote ends the quoting, is written escaped with a
// backslash, and starts a new quoting.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
