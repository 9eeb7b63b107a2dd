// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package shims is the judge of every shell command: in a session it
// runs in the launcher ([Judge], judge_linux.go), where the shim, a small
// forwarder in the agent ring (package shims/forward), sends each
// command; outside one (`lite-sandbox run`, a shim without a session)
// it judges in process ([Shim.RunArgv], [Shim.RunShellAs]). For one
// command ([Shim], the per-command value) it reads the shell's argv
// forms (args.go, forms.go), the agent's wrapper and our own hook
// command (hookcmd.go; the agents' hooks are answered here, in memory:
// agenthook.go, ask.go), asks the validator (package shims/validator)
// for a decision, an `ask` rule's question a person (ask.go,
// docs/validator.md §8), runs an allowed command in the session's
// worker or a fresh sandbox (package sandbox), where the real shell runs
// it, explains a failure, and writes the command's verdict to the audit
// log once (verdict.go). Confinement never depends on the validator:
// every allowed command still runs inside the sandbox. [Dispatch] is
// the per-command entry of both binaries (main.go).
package shims
