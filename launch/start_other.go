// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package launch

import (
	"context"
	"io"
)

// Start is [execEnv]: no pty support on this system.
func Start(ctx context.Context, env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	return execEnv(ctx, env, argv, stdin, stdout, stderr)
}
