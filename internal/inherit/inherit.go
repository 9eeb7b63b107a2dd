// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package inherit keeps the descriptors a process inherited from whoever
// started it out of everything it starts.
//
// A descriptor above 2 that lite-sandbox inherits (from a terminal, an
// IDE, a CI runner, a careless parent) is not close-on-exec: without
// this, it would pass through bwrap into the sandbox, the agent ring and
// every command, and an inherited directory descriptor walks the host's
// tree with openat(fd, "..") past every mount (docs/security-model.md
// §5, escape class 57). Descriptors lite-sandbox passes on purpose (the
// worker's socket, Claude's cwd file) are its own, opened close-on-exec
// and handed over explicitly (exec.Cmd.ExtraFiles), so they are not
// affected.
package inherit

// Seal marks every descriptor from 3 up close-on-exec: the process keeps
// them, but nothing it starts gets them. Call it at the start of a
// command that starts sandboxes or agents (launch, run, a shim outside a
// session), before anything is started; never in a process that is
// handed descriptors on purpose (the worker, the confinement step, the
// egress bridge, the pty leader).
func Seal() error { return cloexecFrom(3) }
