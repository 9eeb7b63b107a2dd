// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package registry is the one list of the agents lite-sandbox knows.
// `launch NAME`, the hook command, doctor, the help text and the shim's
// command-wrapper unwrapping all derive from it: a new agent is its
// adapter package plus one line here.
package registry

import (
	"fmt"
	"os"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/claude"
	"github.com/lite-sandbox/lite-sandbox/agents/codex"
	"github.com/lite-sandbox/lite-sandbox/agents/copilot"
	"github.com/lite-sandbox/lite-sandbox/agents/crush"
	"github.com/lite-sandbox/lite-sandbox/agents/gemini"
	"github.com/lite-sandbox/lite-sandbox/agents/opencode"
	"github.com/lite-sandbox/lite-sandbox/agents/pi"
	"mvdan.cc/sh/v3/syntax"
)

// all lists the adapters, in the order doctor and the help text show them.
var all = []agents.Agent{
	claude.New(),
	codex.New(),
	crush.New(),
	pi.New(),
	gemini.New(),
	opencode.New(),
	copilot.New(),
}

// All returns the adapters, in order.
func All() []agents.Agent { return append([]agents.Agent(nil), all...) }

// Lookup returns the adapter of a known agent; the error lists them.
func Lookup(name string) (agents.Agent, error) {
	for _, a := range all {
		if a.Name() == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names returns the known agents' names.
func Names() []string {
	n := make([]string, len(all))
	for i, a := range all {
		n[i] = a.Name()
	}
	return n
}

// HookNames returns the names of the agents whose routing is a hook
// ([agents.Hooker]) or whose file tools are judged by one
// ([agents.FileHooker]): what `lite-sandbox hook NAME` takes.
func HookNames() []string {
	var n []string
	for _, a := range all {
		_, hook := a.(agents.Hooker)
		if _, files := a.(agents.FileHooker); hook || files {
			n = append(n, a.Name())
		}
	}
	return n
}

// Unwrap returns the model's command inside the wrapper the agent puts
// around each shell command ([agents.Unwrapper]), so that the validator
// judges and explains that command. Only the named agent's wrapper is
// tried; an agent name of "" (a shim that lite-sandbox did not launch)
// tries every known wrapper, as a shim set as SHELL by hand cannot tell
// which agent runs it. ok is false when no wrapper matched: the caller
// judges the whole script, which still unwraps eval recursively. f is
// script parsed once by the caller, or nil.
func Unwrap(agent string, f *syntax.File, script string) (cmd string, ok bool) {
	for _, a := range all {
		if agent != "" && a.Name() != agent {
			continue
		}
		if u, isU := a.(agents.Unwrapper); isU {
			if cmd, ok := u.Unwrap(f, script); ok {
				return cmd, true
			}
		}
	}
	return "", false
}

// Asker is the named agent's [agents.Asker], if it has one.
func Asker(agent string) (agents.Asker, bool) {
	for _, a := range all {
		if a.Name() == agent {
			k, ok := a.(agents.Asker)
			return k, ok
		}
	}
	return nil, false
}

// Cwd is the cwd file an agent's wrapper writes, found in a script.
type Cwd struct {
	// File is the file as the wrapper names it.
	File string
	// Rewrite returns the script writing the directory to descriptor
	// fd instead (nowhere when fd < 0).
	Rewrite func(fd int) string
	// Open opens File on the agent's side, or refuses it.
	Open func(sessionTmp string, getenv func(string) string) (*os.File, error)
}

// CwdFile finds the cwd file of the session's agent (any agent when
// agent is "") in script (f: script parsed, or nil).
func CwdFile(agent string, f *syntax.File, script string) (Cwd, bool) {
	for _, a := range all {
		if agent != "" && a.Name() != agent {
			continue
		}
		if c, isC := a.(agents.CwdReporter); isC {
			if file, rewrite, ok := c.CwdFile(f, script); ok {
				return Cwd{File: file, Rewrite: rewrite, Open: func(tmp string, getenv func(string) string) (*os.File, error) {
					return c.OpenCwdFile(file, tmp, getenv)
				}}, true
			}
		}
	}
	return Cwd{}, false
}
