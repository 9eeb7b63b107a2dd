// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator_test

import (
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

func ExampleValidator_Check() {
	p := &policy.Policy{
		Version: policy.Version,
		Sandbox: policy.Sandbox{Lists: sandbox.Lists{Deny: []string{"~/.ssh"}}},
		Shell:   policy.Shell{MaxDepth: 8, DenyEnv: []string{"LD_PRELOAD"}},
		Rules: []policy.Rule{{
			ID:       "git.push.force",
			Decision: policy.Deny,
			Command:  "git",
			Sub:      []string{"push"},
			Flags:    []string{"-f", "--force"},
			Reason:   "Rewrites history on the remote.",
			Hint:     "Push to a new branch.",
			Match:    []string{"git push -f", "git push origin main --force"},
			NotMatch: []string{"git push origin feature"},
		}},
	}
	v, err := validator.New(p, validator.Env{Workspace: "/work/ws", Home: "/home/user"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cmd := range []string{
		"git status && git push origin main",
		"git status && timeout 60 sh -c 'git push --force'",
		`"g"it push -f`,
		"cat ~/.ssh/id_ed25519",
		"LD_PRELOAD=./x.so ls",
		`eval "$CMD"`,
	} {
		r := v.Check(cmd)
		if r.Allowed() {
			fmt.Printf("%s: allowed\n", cmd)
			continue
		}
		fmt.Printf("%s: %s at %d:%d in %q\n  %s\n", cmd, r.Decision, r.Line, r.Col, r.Command, r.Message())
	}
	// Output:
	// git status && git push origin main: allowed
	// git status && timeout 60 sh -c 'git push --force': deny at 1:32 in "git push --force"
	//   lite-sandbox: blocked by git.push.force: Rewrites history on the remote. Hint: Push to a new branch.
	// "g"it push -f: deny at 1:1 in "\"g\"it push -f"
	//   lite-sandbox: blocked by git.push.force: Rewrites history on the remote. Hint: Push to a new branch.
	// cat ~/.ssh/id_ed25519: deny at 1:5 in "cat ~/.ssh/id_ed25519"
	//   lite-sandbox: blocked by path.denied: /home/user/.ssh/id_ed25519 is hidden by the sandbox (sandbox.deny). Hint: It cannot be read from here; ask the user if you need something from it.
	// LD_PRELOAD=./x.so ls: deny at 1:1 in "LD_PRELOAD=./x.so ls"
	//   lite-sandbox: blocked by env.exec-hook: Setting LD_PRELOAD makes programs run other code (it is listed in shell.deny_env). Hint: Remove the assignment; if the program really needs this variable, ask the user.
	// eval "$CMD": deny at 1:6 in "eval \"$CMD\""
	//   lite-sandbox: blocked by shell.dynamic-script: The validator cannot see the script that eval runs: its text is computed at run time. Hint: Pass the script as a literal string, or run its commands directly.
}
