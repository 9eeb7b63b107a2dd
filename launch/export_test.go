// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// SetSessionEgressResolver replaces DNS for the proxies of the sessions
// the test opens (a test resolver that maps names to local servers), and
// puts it back when the test ends. Tests that call it must not run in
// parallel with other session tests.
func SetSessionEgressResolver(t testing.TB, r egress.Resolver) {
	t.Helper()
	sessionEgressResolver = r
	t.Cleanup(func() { sessionEgressResolver = nil })
}

// Exec runs argv outside the sandbox as a launch of s does, with the
// current environment's routing variables replaced by s's (SHELL and
// the shim's are <s>/bin/bash, the session's is s), so that the program
// sees one session only.
func Exec(ctx context.Context, s *Session, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	info := agents.Session{Dir: s.Dir, Shim: contract.Shim(s.Dir)}
	env := applyEnv(os.Environ(), routingEnv(info, "", "", true), agents.Plan{})
	return execEnv(ctx, env, argv, stdin, stdout, stderr)
}
