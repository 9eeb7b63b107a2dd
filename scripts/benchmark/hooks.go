// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os/exec"
	"strings"
)

// hooks times one tool call's hooks as the agents run them (#29):
// through the session's shim, `/bin/sh -c "'<exe>' hook NAME"` with the
// call's JSON on stdin. Codex's hook (`hook codex`) is recognised by the
// judge and then runs as its own lite-sandbox process, which loads the
// session's policy, compiles the validator and parses the command
// again; the ask hook (`hook ask`, Claude's and Pi's) is answered by the
// judge itself. The difference is the cost of that process per call
// (docs/performance.md, "The agents' hooks").
func (b *bench) hooks() error {
	call := func(agent, name string) func() *exec.Cmd {
		in := fmt.Sprintf(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"true"},"cwd":%q}`, b.small)
		return func() *exec.Cmd {
			c := b.shim(agent, fmt.Sprintf("'%s' hook %s", b.bin, name))
			c.Stdin = strings.NewReader(in)
			return c
		}
	}
	codexHook := &setup{name: "codex hook (shim + hook process)", cmd: call("codex", "codex")}
	alone := &setup{name: "the hook process alone", cmd: func() *exec.Cmd {
		c := b.shim("codex", "")
		c.Path, c.Args = b.bin, []string{b.bin, "hook", "codex"}
		c.Stdin = codexHook.cmd().Stdin
		return c
	}}
	askHook := &setup{name: "ask hook (answered by the judge)", cmd: call("claude", "ask")}
	rebare := &setup{name: "bare bash -c true", cmd: func() *exec.Cmd { return bash("true") }}
	resession := &setup{name: "the session shim, `true`", cmd: func() *exec.Cmd { return b.shim("small", "true") }}
	setups := []*setup{rebare, resession, codexHook, alone, askHook}
	if err := interleave(setups, max(20, b.n/2)); err != nil {
		return err
	}
	fmt.Printf("\n%-40s %10s %10s %10s %10s\n", "one tool call's hook, interleaved", "median", "p95", "added p50", "x bare")
	for _, s := range setups {
		row(s, rebare)
	}
	fmt.Printf("per call, the hook process costs %s over the judge's answer (codex hook - ask hook, medians)\n",
		ms(codexHook.p50()-askHook.p50()))
	return nil
}
