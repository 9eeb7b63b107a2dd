// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package launch

import (
	"context"
	"io"

	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// execEnv fails with [worker.ErrUnsupported].
func execEnv(ctx context.Context, env, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	return -1, worker.ErrUnsupported
}
