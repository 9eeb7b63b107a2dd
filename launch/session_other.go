// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package launch

import (
	"context"

	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// Open fails with [worker.ErrUnsupported]: sessions need Linux for now.
// TODO(macos): a sandbox-exec session needs its own teardown, since
// there is no PID namespace that takes background processes with it.
func Open(ctx context.Context, o Options) (*Session, error) {
	return nil, worker.ErrUnsupported
}

// Close does nothing: no session can be open here.
func (s *Session) Close() error { return nil }

// judgeServer exists only with sessions (Linux).
type judgeServer struct{}
