// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package bwraptest is for tests only: the one check that a test which
// needs the real bubblewrap has it. Without it the test skips, unless
// LITE_SANDBOX_REQUIRE_BWRAP=1 (set by scripts/test and CI), which makes
// it fail, so that a broken install never passes silently (AGENTS.md,
// Conventions).
package bwraptest

import (
	"os"
	"testing"
)

// EnvRequire, set to 1, makes a missing or unusable bubblewrap fail the
// tests that need it instead of skipping them.
const EnvRequire = "LITE_SANDBOX_REQUIRE_BWRAP"

// Required reports whether a missing bubblewrap fails the tests.
func Required() bool { return os.Getenv(EnvRequire) == "1" }

// Require skips t, or fails it when [Required], when err (the outcome
// of finding or probing bubblewrap) is not nil.
func Require(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if Required() {
		t.Fatalf("bwrap is required (%s=1) but unusable: %v", EnvRequire, err)
	}
	t.Skipf("skipping: no usable bwrap (%v); set %s=1 to fail instead", err, EnvRequire)
}
