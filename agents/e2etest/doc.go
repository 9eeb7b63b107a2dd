// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package e2etest holds the end-to-end tests of `lite-sandbox launch`
// with the real agent CLIs (Claude Code, Codex, Pi, and Crush when a
// binary is on PATH) against the mock model of package mockmodel, and the
// pty test of the supervisor. The tests build the lite-sandbox binary
// once, and look the CLIs up in $LITE_SANDBOX_AGENTS_BIN (set by
// scripts/test, which installs pinned versions with scripts/agents),
// then on PATH; a missing CLI skips its test with the install command.
// Sessions need Linux: the tests are Linux-only.
package e2etest
