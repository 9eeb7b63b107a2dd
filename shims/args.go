// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Form is how a caller asked its "shell" to run something.
type Form int

// The forms the shim accepts (README, "The shim").
const (
	// FormCommand: -c CMD [ARG0 ARGS...], and the one-argument prefix form.
	FormCommand Form = iota
	// FormFile: FILE [ARGS...], also what the kernel passes for a
	// shebang (#!/bin/sh -e gives -e FILE ARGS).
	FormFile
	// FormStdin: the script is read from stdin (no operand, or -s).
	// The shim turns it into an interactive shell when stdin is a
	// terminal.
	FormStdin
	// FormVersion and FormHelp: --version, --help.
	FormVersion
	FormHelp
)

// Invocation is what a caller asked its "shell" to run.
type Invocation struct {
	Form Form
	// Command is the script of FormCommand, as sh -c gets it.
	Command string
	// File is the script file of FormFile.
	File string
	// Login is set for -l/--login. The sandboxed shell never reads
	// profile files, so it only matters for recognising wrappers.
	Login bool
	// Interactive is set for -i (dropped for -c and files: an
	// interactive shell would read rc files and expand aliases the
	// validator never saw).
	Interactive bool
	// Options are the shell options to pass on, in order and in
	// separate words: "-e", "+x", "-o", "pipefail", ...
	Options []string
	// Params are the words after the script: $0, $1, ... for -c; $1, ...
	// for a file or stdin.
	Params []string
}

// errUsage marks an argv shape the shim does not accept. It fails closed:
// a caller that sends something else gets an error, never an
// unvalidated shell.
var errUsage = errors.New("unsupported shell invocation")

// setFlags are the single-letter set options every POSIX shell (dash,
// bash, zsh in sh mode, mksh) takes, as -X and +X. Anything else is
// refused: -p (privileged), -r (restricted), bash's -O/-D, ... have
// meanings we do not want to pass on unjudged.
const setFlags = "abCefhmnuvx"

// setOptions are the names -o/+o accept.
var setOptions = map[string]bool{
	"allexport": true, "errexit": true, "errtrace": true, "functrace": true,
	"hashall": true, "ignoreeof": true, "monitor": true, "noclobber": true,
	"noexec": true, "noglob": true, "nolog": true, "notify": true,
	"nounset": true, "pipefail": true, "posix": true, "verbose": true,
	"vi": true, "emacs": true, "xtrace": true,
}

// ParseArgsFor reads a shell command line (args excludes argv[0]) of the
// shell named name (argv[0]'s base name) strictly: the options of the
// shells callers use (see [Form]); anything unknown is an [errUsage].
// One argument that starts with no dash and names no existing file is
// Claude Code's prefix form (the whole command in one word), for
// bash-like names only, since Claude Code takes only a shell whose path
// contains "bash".
func ParseArgsFor(name string, args []string) (Invocation, error) {
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") && !strings.HasPrefix(args[0], "+") && prefixForm(name, args[0]) {
		return Invocation{Command: args[0]}, nil
	}
	p := &argParser{args: args}
	rest, done, err := p.options()
	if err != nil || done {
		return p.inv, err
	}
	return p.form(rest)
}

// argParser reads one shell command line for [ParseArgsFor].
type argParser struct {
	args       []string
	inv        Invocation
	sawC, sawS bool
}

// options reads the options before the operands and returns the
// operands. done is set for --version and --help as the first word,
// which end the parse.
func (p *argParser) options() (rest []string, done bool, err error) {
	args := p.args
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--login":
			p.inv.Login = true
			continue
		case "--norc", "--noprofile":
			// The inner shell never reads them anyway.
			continue
		case "--version":
			if i == 0 {
				p.inv.Form = FormVersion
				return nil, true, nil
			}
		case "--help":
			if i == 0 {
				p.inv.Form = FormHelp
				return nil, true, nil
			}
		case "--", "-":
			i++
			break loop
		}
		if strings.HasPrefix(a, "--") {
			return nil, false, fmt.Errorf("%w: option %q (accepted: -c, -s, -i, -l, --login, --norc, --noprofile, -%s, -o NAME, --version, --help)", errUsage, a, setFlags)
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		if i, err = p.cluster(i); err != nil {
			return nil, false, err
		}
	}
	return args[i:], false, nil
}

// cluster reads the option word args[i], such as -e, +x or -euo, and
// returns the index of the last word it used (-o takes the next one).
func (p *argParser) cluster(i int) (int, error) {
	a := p.args[i]
	sign := a[:1]
	for j := 1; j < len(a); j++ {
		f := a[j]
		switch {
		case sign == "-" && f == 'c':
			p.sawC = true
		case sign == "-" && f == 's':
			p.sawS = true
		case sign == "-" && f == 'i':
			p.inv.Interactive = true
		case sign == "-" && f == 'l':
			p.inv.Login = true
		case f == 'o':
			// -o NAME takes the next word, even inside a cluster
			// (-euo pipefail).
			if i+1 >= len(p.args) || !setOptions[p.args[i+1]] {
				return i, fmt.Errorf("%w: %so needs an option name (one of errexit, nounset, pipefail, xtrace, ...)", errUsage, sign)
			}
			i++
			p.inv.Options = append(p.inv.Options, sign+"o", p.args[i])
		case strings.IndexByte(setFlags, f) >= 0:
			p.inv.Options = append(p.inv.Options, sign+string(f))
		default:
			return i, fmt.Errorf("%w: option %s%c in %q (accepted: -c, -s, -i, -l, --login, -%s, -o NAME)", errUsage, sign, f, a, setFlags)
		}
	}
	return i, nil
}

// form decides the form from the options seen and the operands rest.
func (p *argParser) form(rest []string) (Invocation, error) {
	inv := p.inv
	switch {
	case p.sawC && p.sawS:
		return inv, fmt.Errorf("%w: -c and -s together", errUsage)
	case p.sawC:
		if len(rest) == 0 {
			return inv, fmt.Errorf("%w: -c needs a command string", errUsage)
		}
		inv.Form, inv.Command, inv.Params = FormCommand, rest[0], rest[1:]
		inv.Interactive = false
	case p.sawS || len(rest) == 0:
		inv.Form, inv.Params = FormStdin, rest
	default:
		inv.Form, inv.File, inv.Params = FormFile, rest[0], rest[1:]
		inv.Interactive = false
	}
	return inv, nil
}

// prefixForm tells Claude Code's prefix mode (one argument holding the
// whole wrapper) from `bash FILE`: only bash-like names have it, and a
// word that names an existing file is a script. (lite-sandbox-shim and
// `lite-sandbox shim` count as bash.)
func prefixForm(name, word string) bool {
	if k := shellKind(name); k != kindBash && k != kindUnknown {
		return false
	}
	_, err := os.Lstat(word)
	return err != nil
}
