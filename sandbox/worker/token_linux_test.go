// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// TestToken: a worker started with a token (a session with a judge)
// runs only requests that carry it, so that nothing but the session's
// judge, not a process of the agent ring that reaches worker.sock, runs
// a command unjudged and unrecorded. Positive control: the right token
// runs the command.
func TestToken(t *testing.T) {
	sock, _ := startWorker(t, worker.EnvToken+"=s3cret-token")
	for _, tc := range []struct {
		name, token string
		ok          bool
	}{
		{"none", "", false},
		{"wrong", "s3cret-tokeX", false},
		{"prefix", "s3cret", false},
		{"right", "s3cret-token", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "ran")
			st, err := worker.Run(context.Background(), sock, worker.Request{
				Argv: []string{"/bin/sh", "-c", "touch " + marker}, Env: env, Token: tc.token,
			}, nil, nil, nil)
			_, statErr := os.Stat(marker)
			if tc.ok {
				if err != nil || st != 0 || statErr != nil {
					t.Errorf("with the token: status %d, %v; marker: %v", st, err, statErr)
				}
				return
			}
			var pe *worker.ProtocolError
			if !errors.As(err, &pe) || statErr == nil {
				t.Errorf("token %q: status %d, err %v, marker %v; want a refusal and nothing run", tc.token, st, err, statErr)
			}
		})
	}
	// Ping needs no token: it runs nothing.
	if err := worker.Ping(context.Background(), sock); err != nil {
		t.Errorf("ping: %v", err)
	}
}
