// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parseCase is one argv of TestParseArgs and what it parses to.
type parseCase struct {
	name   string // argv[0]; "" is bash
	args   []string
	form   Form
	cmd    string
	file   string
	login  bool
	opts   []string
	params []string
	bad    bool
}

// parseCases are TestParseArgs's table; script is an executable file.
// ParseArgs is [ParseArgsFor] under bash's name.
func ParseArgs(args []string) (Invocation, error) { return ParseArgsFor("bash", args) }

func parseCases(script string) []parseCase {
	return []parseCase{
		// Today's forms.
		{args: []string{"-c", "echo hi"}, cmd: "echo hi"},
		{args: []string{"-lc", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-cl", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-c", "-l", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-l", "-c", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"--login", "-c", "echo hi"}, cmd: "echo hi", login: true},
		{args: []string{"-c", "env"}, cmd: "env"},
		{args: []string{"-c", "echo $0 $1", "zero", "one"}, cmd: "echo $0 $1", params: []string{"zero", "one"}},
		{args: []string{"-c", "--", "-x"}, cmd: "-x"},
		{args: []string{"source /x && eval ls && pwd -P >| /tmp/c"}, cmd: "source /x && eval ls && pwd -P >| /tmp/c"},
		{name: "lite-sandbox-shim", args: []string{"echo four"}, cmd: "echo four"},
		// Positional parameters: find -exec sh -c '...' _ {}, xargs sh -c.
		{name: "sh", args: []string{"-c", "echo $1", "_", "x"}, cmd: "echo $1", params: []string{"_", "x"}},
		// Options before and after -c.
		{name: "sh", args: []string{"-e", "-c", "false"}, cmd: "false", opts: []string{"-e"}},
		{name: "sh", args: []string{"-ec", "false"}, cmd: "false", opts: []string{"-e"}},
		{name: "bash", args: []string{"-euo", "pipefail", "-c", "x"}, cmd: "x", opts: []string{"-e", "-u", "-o", "pipefail"}},
		{name: "bash", args: []string{"-o", "pipefail", "+o", "xtrace", "-xc", "x"}, cmd: "x", opts: []string{"-o", "pipefail", "+o", "xtrace", "-x"}},
		{name: "bash", args: []string{"--norc", "--noprofile", "-i", "-c", "x"}, cmd: "x"},
		{name: "sh", args: []string{"-c", "-e", "x"}, cmd: "x", opts: []string{"-e"}},
		{name: "sh", args: []string{"+e", "-c", "x"}, cmd: "x", opts: []string{"+e"}},
		// Files and shebangs (#!/bin/sh -e → sh -e FILE ARGS).
		{name: "sh", args: []string{script, "a", "b"}, form: FormFile, file: script, params: []string{"a", "b"}},
		{name: "/bin/sh", args: []string{"-e", script, "a"}, form: FormFile, file: script, opts: []string{"-e"}, params: []string{"a"}},
		{name: "sh", args: []string{"missing.sh"}, form: FormFile, file: "missing.sh"},
		{name: "bash", args: []string{script}, form: FormFile, file: script},
		{name: "sh", args: []string{"-x", "--", "-weird"}, form: FormFile, file: "-weird", opts: []string{"-x"}},
		// Stdin scripts and interactive shells.
		{name: "sh", args: nil, form: FormStdin},
		{name: "sh", args: []string{"-s", "a", "b"}, form: FormStdin, params: []string{"a", "b"}},
		{name: "sh", args: []string{"-es"}, form: FormStdin, opts: []string{"-e"}},
		{name: "bash", args: []string{"-i"}, form: FormStdin},
		{name: "bash", args: []string{"-l"}, form: FormStdin, login: true},
		{name: "sh", args: []string{"-"}, form: FormStdin},
		{name: "bash", args: []string{"--version"}, form: FormVersion},
		{name: "sh", args: []string{"--help"}, form: FormHelp},
		// Fail closed.
		{args: []string{"-c"}, bad: true},
		{args: []string{"--rcfile", "x", "-c", "id"}, bad: true},
		{args: []string{"-p", "-c", "id"}, bad: true},
		{args: []string{"-r", "-c", "id"}, bad: true},
		{args: []string{"-O", "extglob", "-c", "id"}, bad: true},
		{args: []string{"-o", "-c", "id"}, bad: true},
		{args: []string{"-o"}, bad: true},
		{args: []string{"-cs", "id"}, bad: true},
		{args: []string{"-c", "x", "--version"}, cmd: "x", params: []string{"--version"}},
		{args: []string{"-e", "--version"}, bad: true},
		{name: "sh", args: []string{"-e -u", script}, bad: true},
		{args: []string{"--posix", "-c", "x"}, bad: true},
	}
}

func TestParseArgs(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "build.sh")
	if err := os.WriteFile(script, []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range parseCases(script) {
		name := tc.name
		if name == "" {
			name = "bash"
		}
		inv, err := ParseArgsFor(name, tc.args)
		if tc.bad {
			if !errors.Is(err, errUsage) {
				t.Errorf("%s %q: err = %v, want ErrUsage", name, tc.args, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", name, tc.args, err)
			continue
		}
		if inv.Form != tc.form || inv.Command != tc.cmd || inv.File != tc.file || inv.Login != tc.login ||
			!slices.Equal(inv.Options, tc.opts) || !slices.Equal(inv.Params, tc.params) {
			t.Errorf("%s %q: got %+v", name, tc.args, inv)
		}
	}
}

func TestInnerShell(t *testing.T) {
	if p, _ := innerShell("/bin/sh"); p != "/bin/sh" {
		t.Errorf("sh runs %s, want /bin/sh", p)
	}
	if p, f := innerShell("/s/bin/bash"); p != bash() || !slices.Equal(f, []string{"--noprofile", "--norc"}) {
		t.Errorf("bash runs %s %q", p, f)
	}
	if p, f := innerShell("zsh"); systemShell("zsh") == "" && p != bash() || systemShell("zsh") != "" && !slices.Equal(f, []string{"-f"}) {
		t.Errorf("zsh runs %s %q", p, f)
	}
}

// FuzzParseArgs: the parser never panics, and what it accepts is one of
// the forms with its parts taken from the arguments.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"-c\x00echo hi", "-euo\x00pipefail\x00-c\x00x\x00_\x00y", "-e\x00f", "-s\x00a", "--version", "-o", "+o\x00xtrace\x00-c\x00x", ""} {
		f.Add("sh", s)
	}
	f.Fuzz(func(t *testing.T, name, joined string) {
		var args []string
		if joined != "" {
			args = strings.Split(joined, "\x00")
		}
		inv, err := ParseArgsFor(name, args)
		if err != nil {
			if !errors.Is(err, errUsage) {
				t.Fatalf("%q: error %v is not ErrUsage", args, err)
			}
			return
		}
		switch inv.Form {
		case FormCommand:
			if !slices.Contains(args, inv.Command) {
				t.Fatalf("%q: command %q is not an argument", args, inv.Command)
			}
		case FormFile:
			if !slices.Contains(args, inv.File) {
				t.Fatalf("%q: file %q is not an argument", args, inv.File)
			}
		case FormStdin, FormVersion, FormHelp:
		default:
			t.Fatalf("%q: form %d", args, inv.Form)
		}
		for i := 0; i < len(inv.Options); i++ {
			o := inv.Options[i]
			if len(o) != 2 || (o[0] != '-' && o[0] != '+') {
				t.Fatalf("%q: option %q", args, o)
			}
			if o[1] == 'o' {
				i++
				if i >= len(inv.Options) || !setOptions[inv.Options[i]] {
					t.Fatalf("%q: -o without a known name in %q", args, inv.Options)
				}
			}
		}
	})
}
