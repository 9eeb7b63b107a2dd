// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"testing"

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
