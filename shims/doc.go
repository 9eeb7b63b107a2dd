// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package shims is the shell an agent runs: it reads the argv shapes that
// agents send, recognises their wrappers, asks the validator (package
// shims/validator) for a decision, and hands an allowed command to the OS
// sandbox (package sandbox), where the real bash --noprofile --norc runs
// it. Confinement never depends on the validator: every allowed command
// still runs inside the sandbox.
package shims
