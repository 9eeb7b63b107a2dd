// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
	"mvdan.cc/sh/v3/syntax"
)

// maxScript bounds the script text (a file or stdin) the validator
// reads and judges. Larger scripts run unjudged in the sandbox, which
// confines them anyway. A generated configure is up to about 1 MiB;
// judging 500 KiB of shell takes about 0.2 s here.
const maxScript = 2 << 20

// RunShellAs is the shim's whole job for one invocation of the shell
// named argv0 (sh, bash, dash, zsh, ... or lite-sandbox-shim): parse the
// arguments strictly, judge, then run the command in the sandbox under
// the shell the caller asked for, with its options and positional
// parameters. It returns only on error or with the command's status
// (an allowed command may replace the process). Its verdict is recorded
// once, whichever way it ends (conclude).
func (s *Shim) RunShellAs(argv0 string, args []string) error {
	s.v.start, s.v.command = time.Now(), quoteArgv(append([]string{filepath.Base(argv0)}, args...))
	return s.conclude(s.runShellAs(argv0, args))
}

func (s *Shim) runShellAs(argv0 string, args []string) error {
	if s.refused != nil {
		return s.refused
	}
	inv, err := ParseArgsFor(argv0, args)
	if err != nil {
		return &exit.Error{Code: exit.Usage, Err: err}
	}
	shell, flags := innerShell(argv0)
	base := append([]string{shell}, flags...)
	base = append(base, inv.Options...)
	switch inv.Form {
	case FormVersion, FormHelp:
		// The real shell's own answer: callers parse `bash --version`
		// (and dash refuses it, as it would without the shim).
		s.v.result.Decision = policy.Allow
		if !hostpath.Within(s.Cwd, s.Workspace) {
			s.Cwd = s.Workspace
		}
		return s.Exec([]string{shell, args[0]})
	case FormCommand:
		return s.runCommand(inv, base)
	case FormFile:
		return s.runFile(argv0, args, inv, base)
	}
	if isTerminal(s.stdin) {
		// Typed input cannot be judged line by line before it runs.
		fmt.Fprintln(s.stderr, "lite-sandbox: interactive shell: what you type is not judged by the validator; the OS sandbox confines it")
		s.v.result.Decision = policy.Allow
		if !hostpath.Within(s.Cwd, s.Workspace) {
			return s.outside()
		}
		return s.Exec(append(append(base, "-i"), dashDash(inv.Params)...))
	}
	return s.runStdin(argv0, args, inv, base)
}

// runCommand is -c CMD [ARG0 ARGS...].
func (s *Shim) runCommand(inv Invocation, base []string) error {
	// The command line is parsed once, and every step that looks at its
	// shape reads that parse (#19): our own hook, a call of the shim
	// itself (each inner line parsed once in its turn), the agent's
	// wrapper and its cwd file, the validator.
	line := s.parseLine(inv.Command)
	if s.session != nil {
		if name, ok := hookCommand(line.file, line.text, s.sessionExe); ok {
			if name == askHookName {
				return s.runAskHook()
			}
			return s.runAgentHook(name)
		}
		for range 4 { // a rewrite of a rewrite, at most a few deep
			inner, ok := selfCall(line.file, line.text, contract.Shim(s.session.Dir))
			if !ok {
				break
			}
			line = s.parseLine(inner)
		}
	}
	inv.Command = line.text
	script := line.text
	s.v.command = line.text
	var r validator.Result
	var t validator.Traced
	if inner, ok := registry.Unwrap(s.agent, line.file, line.text); ok {
		// The model's command inside the wrapper is another text, judged
		// (and so parsed) once.
		s.v.command = inner
		r, t = s.validator.CheckTraced(inner)
	} else {
		r, t = s.validator.CheckTracedFile(line.text, line.file, line.err)
	}
	s.v.result, s.trace = r, &t
	if !r.Allowed() {
		if err := s.held(""); err != nil {
			return err
		}
	}
	if !hostpath.Within(s.Cwd, s.Workspace) {
		return s.outside()
	}
	if cwd, ok := registry.CwdFile(s.agent, line.file, line.text); ok {
		// The agent's cwd file (Claude's) is opened here, on the agent's
		// side, by its adapter, and the command gets only a descriptor
		// (agents/claude/cwdfile.go). A file it refuses is not written at
		// all: the command still runs, and the `cd` does not carry over.
		f, err := cwd.Open(s.sessionTmp, s.env)
		if err != nil {
			esc.Fprintf(s.stderr, "lite-sandbox: warning: not writing %v; a cd will not carry over to the next command\n", err)
			script = cwd.Rewrite(-1)
		} else {
			defer f.Close()
			s.extra = append(s.extra, f)
			script = cwd.Rewrite(cwdFD + len(s.extra) - 1)
		}
	}
	argv := append(base, "-c")
	argv = append(argv, dashDash([]string{script})...)
	return s.Exec(append(argv, inv.Params...))
}

// runFile is FILE [ARGS...] (and a shebang's -OPTS FILE ARGS): the
// script's text is judged when it can be read (see
// validator.CheckScript for what is judged in scripts), then the file
// runs in the sandbox, where it must be visible too.
func (s *Shim) runFile(argv0 string, args []string, inv Invocation, base []string) error {
	name := inv.File
	if !filepath.IsAbs(name) {
		name = filepath.Join(s.Cwd, name)
	}
	if text, ok := readScript(name); ok {
		s.v.result = s.validator.CheckScript(text)
	} else {
		// Unreadable here, or too large: the sandbox confines it.
		s.v.result.Decision = policy.Allow
	}
	if r := s.v.result; !r.Allowed() {
		if err := s.held(fmt.Sprintf(" (in %s, line %d)", inv.File, r.Line)); err != nil {
			return err
		}
	}
	if !hostpath.Within(s.Cwd, s.Workspace) {
		return s.outside()
	}
	return s.Exec(append(base, dashDash(append([]string{inv.File}, inv.Params...))...))
}

// runStdin is a script on stdin (sh, sh -s ARGS): the shim reads it to
// its end (at most maxScript), judges it, and hands the inner shell a
// pipe that holds the same bytes followed by whatever else arrives on
// its own stdin.
func (s *Shim) runStdin(argv0 string, args []string, inv Invocation, base []string) error {
	head, err := io.ReadAll(io.LimitReader(s.stdin, maxScript+1))
	if err != nil {
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("lite-sandbox: read the script on stdin: %w", err)}
	}
	if len(head) <= maxScript {
		s.v.result = s.validator.CheckScript(string(head))
	} else {
		s.v.result.Decision = policy.Allow
	}
	if r := s.v.result; !r.Allowed() {
		if err := s.held(fmt.Sprintf(" (in the script on stdin, line %d)", r.Line)); err != nil {
			return err
		}
	}
	if !hostpath.Within(s.Cwd, s.Workspace) {
		return s.outside()
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("lite-sandbox: %w", err)}
	}
	stdin := s.stdin
	go func() {
		// Ends with the shim (in the judge: at the end of the caller's
		// stdin, which the head above read to its end unless the script
		// was larger than maxScript); a shell that stops reading gets
		// EPIPE here, not a signal.
		if _, err := pw.Write(head); err == nil && len(head) > maxScript {
			io.Copy(pw, stdin)
		}
		pw.Close()
	}()
	defer pr.Close()
	s.stdin = pr
	return s.Exec(append(append(base, "-s"), dashDash(inv.Params)...))
}

func (s *Shim) outside() error {
	return &exit.Error{Code: exit.Denied, Err: fmt.Errorf("lite-sandbox: the working directory %s is outside the workspace %s; cd into the workspace first", s.Cwd, s.Workspace)}
}

// cwdFD is the descriptor a sandboxed wrapper writes its final
// directory to: the first extra file of the worker request.
const cwdFD = 3

func (s *Shim) env(k string) string {
	if s.getenv != nil {
		return s.getenv(k)
	}
	return os.Getenv(k)
}

// dashDash puts "--" before words whose first one a shell would take
// for an option.
func dashDash(words []string) []string {
	if len(words) > 0 && (strings.HasPrefix(words[0], "-") || strings.HasPrefix(words[0], "+")) {
		return append([]string{"--"}, words...)
	}
	return words
}

// readScript reads a script file for the validator: a regular file of
// at most maxScript bytes.
func readScript(name string) (string, bool) {
	// O_NONBLOCK: a FIFO named as the script must not block the judge
	// (the Stat below then refuses it).
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScript {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxScript+1))
	if err != nil || len(b) > maxScript {
		return "", false
	}
	return string(b), true
}

// execveNotSelf replaces the process with argv, unsandboxed (mode off,
// or no backend in mode auto), unless argv's program is this very
// binary: inside the agent ring every shell is the shim, and replacing
// the shim with "/bin/sh" would start it again, forever.
func (s *Shim) execveNotSelf(argv, env []string) error {
	if self, err := os.Executable(); err == nil {
		if p, err := exec.LookPath(argv[0]); err == nil {
			a, errA := os.Stat(p)
			b, errB := os.Stat(self)
			if errA == nil && errB == nil && os.SameFile(a, b) {
				return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("lite-sandbox: %s is lite-sandbox itself here (an agent ring without a sandbox?); refusing to run it unsandboxed", argv[0])}
			}
		}
	}
	return execve(argv, env, s.Cwd)
}

// commandLine is one shell command line and its one parse.
type commandLine struct {
	text string
	file *syntax.File // nil when it did not parse
	err  error
}

// parseLine parses a command line as the validator does.
func (s *Shim) parseLine(text string) commandLine {
	f, err := s.validator.Parse(text)
	if err != nil {
		f = nil
	}
	return commandLine{text: text, file: f, err: err}
}
