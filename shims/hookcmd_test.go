// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/agents/codex"
	"github.com/lite-sandbox/lite-sandbox/agents/crush"
)

func TestHookCommand(t *testing.T) {
	const exe = "/opt/lite sandbox/lite-sandbox"
	q := "'" + exe + "'"
	for _, tc := range []struct {
		script, name string
	}{
		{q + " hook codex", "codex"},
		{q + " hook crush", "crush"},
		{"[ -x " + q + " ] && " + q + " hook crush || exit 2", "crush"},
		{`"` + exe + `" hook pi`, "pi"},
		// Not ours: other binaries, other shapes, anything more.
		{"'/usr/bin/lite-sandbox' hook codex", ""},
		{q + " hook codex; id", ""},
		{q + " hook codex > /tmp/x", ""},
		{"X=1 " + q + " hook codex", ""},
		{q + " hook $NAME", ""},
		{q + " hook codex extra", ""},
		{q + " hook Codex", ""},
		{q + " hook ../x", ""},
		{q + " run -- id", ""},
		{"[ -x " + q + " ] && " + q + " hook crush || exit 1", ""},
		{"[ -x " + q + " ] && " + q + " hook crush", ""},
		{"[ -x /other ] && " + q + " hook crush || exit 2", ""},
		{"[ -x " + q + " ] && " + q + " hook crush || exit 2 &", ""},
		{"! " + q + " hook codex", ""},
		{q + " hook codex &", ""},
		{"$(echo " + q + ") hook codex", ""},
		{"my-hook.sh", ""},
		{"/opt/lite*/lite-sandbox hook codex", ""},
	} {
		name, ok := hookCommand(parsed(tc.script), tc.script, exe)
		if ok != (tc.name != "") || name != tc.name {
			t.Errorf("%s: got %q, %v; want %q", tc.script, name, ok, tc.name)
		}
	}
	if _, ok := hookCommand(parsed("/a*b hook codex"), "/a*b hook codex", "/a*b"); ok {
		t.Error("an unquoted glob matched")
	}
	if _, ok := hookCommand(parsed("'' hook codex"), "'' hook codex", ""); ok {
		t.Error("an empty exe matched")
	}
}

// TestHookCommandOfAdapters: the commands our adapters install are
// recognised, also with a quote in the binary's path.
func TestHookCommandOfAdapters(t *testing.T) {
	for _, exe := range []string{"/usr/local/bin/lite-sandbox", "/home/o'brien/bin/lite sandbox"} {
		for name, cmd := range map[string]string{
			"claude": claude.HookCommand(exe),
			"codex":  codex.HookCommand(exe),
			"crush":  crush.HookCommand(exe),
		} {
			if got, ok := hookCommand(parsed(cmd), cmd, exe); !ok || got != name {
				t.Errorf("%s: got %q, %v", cmd, got, ok)
			}
			if _, ok := hookCommand(parsed(cmd), cmd, exe+"x"); ok {
				t.Errorf("%s matched another binary", cmd)
			}
		}
	}
}

func TestSelfCall(t *testing.T) {
	const shim = "/run/u/lite-sandbox/s-1/bin/bash"
	for _, tc := range []struct {
		script, inner string
		ok            bool
	}{
		{agents.ShellQuote(shim) + " -c " + agents.ShellQuote("echo 'a b'"), "echo 'a b'", true},
		{"'" + shim + "' -c 'ls -l'", "ls -l", true},
		{"'" + shim + "' -c 'ls' extra", "", false},
		{"'/bin/bash' -c 'ls'", "", false},
		{"'" + shim + "' -c ls; id", "", false},
		{"'" + shim + "' -c \"$X\"", "", false},
		{"'" + shim + "' -lc ls", "", false},
	} {
		inner, ok := selfCall(parsed(tc.script), tc.script, shim)
		if ok != tc.ok || inner != tc.inner {
			t.Errorf("selfCall(%q) = %q, %v; want %q, %v", tc.script, inner, ok, tc.inner, tc.ok)
		}
	}
}

// parsed is script parsed as the shim parses a command line, or nil.
func parsed(script string) *syntax.File {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(script), "")
	if err != nil {
		return nil
	}
	return f
}
