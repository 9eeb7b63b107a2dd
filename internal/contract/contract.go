// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package contract is what the launcher and the shim agree on: the
// environment variables that route an agent's shell commands, the names
// inside a session directory, the session's metadata, and how the shim
// attaches to a session. Both sides import it, and it imports nothing of
// lite-sandbox, so that the shim never reaches into the launcher.
package contract

import (
	"os"
	"path/filepath"
)

// Environment variables the launcher sets for the agent, and the shim
// reads.
const (
	// EnvSession holds the session directory.
	EnvSession = "LITE_SANDBOX_SESSION"
	// EnvShim holds the shim's path (<session>/bin/bash), for agents that
	// take their shell from a variable of their own.
	EnvShim = "LITE_SANDBOX_SHIM"
	// EnvWorkspace names the workspace of a shim that runs outside a
	// session (a launch without a sandbox backend, or a user's SHELL).
	EnvWorkspace = "LITE_SANDBOX_WORKSPACE"
	// EnvMode is the sandbox mode (auto, on, off) of such a shim.
	EnvMode = "LITE_SANDBOX_MODE"
	// EnvAgent names the launched agent for a shim outside a session,
	// so that it applies that agent's command wrapper only; inside a
	// session [Meta.Agent] says it.
	EnvAgent = "LITE_SANDBOX_AGENT"
	// EnvConfig names the user's policy file.
	EnvConfig = "LITE_SANDBOX_CONFIG"
	// EnvNoAudit, set to 1, turns the audit log off (for benchmarks).
	EnvNoAudit = "LITE_SANDBOX_NO_AUDIT"
	// EnvJudgeFD names the descriptor of the judge's broker in the
	// Landlock agent ring (#28), where no Unix socket may be made: the
	// ring's confinement step passes its filter's listener to the
	// launcher over it, and the shim, seeing it set, asks the ring's
	// filter for a connection to the judge instead of connecting to
	// judge.sock (sandbox/worker DialRing, JudgeProto).
	EnvJudgeFD = "LITE_SANDBOX_JUDGE_FD"
)

// JudgeProto is the protocol argument of socket(AF_UNIX, SOCK_STREAM,
// JudgeProto), the Landlock agent ring's one way to a new connection to
// the session's judge when the broker's descriptor is gone (#28): the
// ring's seccomp filter sends that call to the launcher, which answers
// it with a connection to judge.sock (seccomp user notification). The
// kernel itself refuses the number (EPROTONOSUPPORT), so outside the
// ring the call fails.
const JudgeProto = 0x4c53

// Names inside a session directory.
const (
	SocketName = "worker.sock"  // the worker's listening socket
	JudgeName  = "judge.sock"   // the launcher's judge: where the shim sends each command
	PolicyName = "policy.toml"  // the frozen policy
	MetaName   = "session.json" // [Meta]
	ShimPath   = "bin/bash"     // a link to the lite-sandbox binary: the shim
	PidName    = "pid"          // the owner's pid, for stale-directory cleanup
	WorkerLog  = "worker.log"   // the worker's stdout and stderr, and restarts
	// DirMode is the session directory's mode: private to its owner.
	DirMode = 0o700
)

// Shim is the shim's path in the session directory dir.
func Shim(dir string) string { return filepath.Join(dir, ShimPath) }

// Meta is what a session tells its shims beside the frozen policy
// (session.json).
type Meta struct {
	Workspace string `json:"workspace"`
	Home      string `json:"home"`
	Mode      string `json:"mode"`
	// Agent is the launched agent's name ("claude", ..., "exec"); the
	// shim applies that agent's command wrapper only.
	Agent string `json:"agent,omitempty"`
	// Exe is the lite-sandbox binary: the shim runs exactly
	// '<Exe>' hook NAME directly instead of in the sandbox.
	Exe string `json:"exe,omitempty"`
	// AgentTmp is the agent's private temp dir, never mounted in the
	// command sandbox: the only place the shim opens Claude's cwd file.
	AgentTmp string `json:"agent_tmp,omitempty"`
}

// WorkerCommand is the hidden subcommand of both binaries that runs a
// session's worker inside the sandbox: `lite-sandbox-shim __worker` (the
// smaller binary, so that the long-lived worker stays small), or
// `lite-sandbox __worker` where the shim binary is missing.
const WorkerCommand = "__worker"

// ShimBinary is the name of the bundled shim binary (cmd/lite-sandbox-shim),
// installed beside lite-sandbox. It is the per-command path: it links
// only what a command needs and starts faster than the whole command
// line (docs/performance.md).
const ShimBinary = "lite-sandbox-shim"

// FindShimBinary returns the bundled shim binary installed beside exe
// (the lite-sandbox binary), or exe itself, which is the shim too under a
// shell's name, when there is none (a `go build` of the CLI alone).
func FindShimBinary(exe string) string {
	p := filepath.Join(filepath.Dir(exe), ShimBinary)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return exe
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}
