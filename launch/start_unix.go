// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package launch

import (
	"context"
	"io"
	"os"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/launch/term"
)

// Start runs argv (the agent) outside the sandbox with env and returns
// its exit status. When stdin is a terminal the agent gets a pty of its
// own (see [term.Run]); otherwise its stdio are passed through ([execEnv]),
// as scripts, CI and `claude -p` need.
func Start(ctx context.Context, env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(f) {
		exe, err := leaderExe()
		if err != nil {
			return exit.NotExecutable, err
		}
		return term.Run(ctx, env, argv, f, stdout, exe, inRing(ctx))
	}
	return execEnv(ctx, env, argv, stdin, stdout, stderr)
}

// leaderExe is the binary that holds [PTYLeaderCommand]: this one.
var leaderExe = func() (string, error) { return ownExe("") }
