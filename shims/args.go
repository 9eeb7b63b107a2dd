// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"fmt"
	"strings"
)

// Invocation is what an agent asked its "shell" to run.
type Invocation struct {
	// Command is the script, as bash -c would get it.
	Command string
	// Login is set for -l/--login. The sandboxed bash never reads profile
	// files (--noprofile), so it only matters for recognising wrappers.
	Login bool
	// Params are the words after the script: $0, $1, ...
	Params []string
}

// ErrUsage marks an argv shape the shim does not accept. It fails closed:
// an agent that sends something else gets an error, never an
// unvalidated shell.
var ErrUsage = errors.New("unsupported shell invocation")

// ParseArgs reads the shapes agents really send (see
// docs/agents.md §2.1): -c CMD, -lc CMD, -cl CMD, -c -l CMD,
// -l -c CMD, --login -c CMD, and one argument holding the whole command
// (Claude Code's prefix mode). args excludes argv[0].
func ParseArgs(args []string) (Invocation, error) {
	var inv Invocation
	if len(args) == 0 {
		return inv, fmt.Errorf("%w: no command (an interactive shell is not offered; use -c 'command')", ErrUsage)
	}
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		inv.Command = args[0]
		return inv, nil
	}
	sawC := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--login" {
			inv.Login = true
			continue
		}
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 || strings.HasPrefix(a, "--") {
			break
		}
		for _, f := range a[1:] {
			switch f {
			case 'c':
				sawC = true
			case 'l':
				inv.Login = true
			default:
				return inv, fmt.Errorf("%w: option -%c in %q (accepted: -c, -l, --login)", ErrUsage, f, a)
			}
		}
	}
	if !sawC {
		return inv, fmt.Errorf("%w: %q (want -c 'command')", ErrUsage, strings.Join(args, " "))
	}
	if i >= len(args) {
		return inv, fmt.Errorf("%w: -c needs a command string", ErrUsage)
	}
	inv.Command = args[i]
	inv.Params = args[i+1:]
	return inv, nil
}
