// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// hooks times one tool call's hooks as the agents run them (#29):
// through the session's shim, `/bin/sh -c "'<exe>' hook NAME"` with the
// call's JSON on stdin, which the session's judge answers (Codex's
// routing hook, the ask hook of Claude and Pi). Before #29 Codex's hook
// was answered "run it yourself" and the shim execed `lite-sandbox hook
// codex`, which loaded the policy, compiled the validator and parsed the
// command again: that process is timed here as it still runs outside a
// session (`lite-sandbox hook codex` judging in process), so before is
// the shim's round trip plus that process. After #29 outside the agent
// ring (no shim for the agent's shell) `lite-sandbox hook codex` starts
// and forwards to the judge, loading nothing (docs/performance.md, "The
// agents' hooks").
func (b *bench) hooks() error {
	in := fmt.Sprintf(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"true"},"cwd":%q}`, b.small)
	call := func(agent, name string) func() *exec.Cmd {
		return func() *exec.Cmd {
			c := b.shim(agent, fmt.Sprintf("'%s' hook %s", b.bin, name))
			c.Stdin = strings.NewReader(in)
			return c
		}
	}
	process := func(session bool) func() *exec.Cmd {
		return func() *exec.Cmd {
			c := b.shim("codex", "")
			c.Path, c.Args = b.bin, []string{b.bin, "hook", "codex"}
			if !session {
				// What the per-call process did before: load, compile,
				// parse, judge.
				c.Env = append(os.Environ(), "HOME="+b.home, contract.EnvWorkspace+"="+b.small, contract.EnvMode+"=on",
					contract.EnvShim+"="+contract.Shim(b.sessions["codex"].Dir))
			}
			c.Stdin = strings.NewReader(in)
			return c
		}
	}
	codexHook := &setup{name: "codex hook through the shim (judge)", cmd: call("codex", "codex")}
	inProcess := &setup{name: "hook process judging alone (before)", cmd: process(false)}
	forwarded := &setup{name: "hook process forwarding (no ring)", cmd: process(true)}
	askHook := &setup{name: "ask hook through the shim (judge)", cmd: call("claude", "ask")}
	rebare := &setup{name: "bare bash -c true", cmd: func() *exec.Cmd { return bash("true") }}
	resession := &setup{name: "the session shim, `true`", cmd: func() *exec.Cmd { return b.shim("small", "true") }}
	setups := []*setup{rebare, resession, codexHook, askHook, forwarded, inProcess}
	if err := interleave(setups, max(20, b.n/2)); err != nil {
		return err
	}
	fmt.Printf("\n%-40s %10s %10s %10s %10s\n", "one tool call's hook, interleaved", "median", "p95", "added p50", "x bare")
	for _, s := range setups {
		row(s, rebare)
	}
	before := codexHook.p50() + inProcess.p50()
	fmt.Printf("codex hook per call, medians: before #29 about %s (the shim's round trip + the hook process), after %s in the ring (%.1fx less), %s outside it\n",
		ms(before), ms(codexHook.p50()), float64(before)/float64(codexHook.p50()), ms(forwarded.p50()))
	return nil
}
