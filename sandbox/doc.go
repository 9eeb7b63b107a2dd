// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package sandbox turns the sandbox part of a policy into an OS sandbox
// around one command: bubblewrap (bwrap) on Linux, sandbox-exec on macOS.
//
// The flow is:
//
//	spec, err := sandbox.NewSpec(grants, workspace, home, cwd) // policy.Policy.SandboxSpec
//	backend, detectErr := sandbox.Detect()
//	status, err := sandbox.Resolve(mode, backend, detectErr, workspace, home)
//	p, err := sandbox.Prepare(backend, spec, confine.Argv(exe, argv))
//	// run p.Path with p.Args, wait, then:
//	p.Done()
//
// Prepare completes the spec from the host ([DetectHost]: a linked
// worktree's git directories, the core.hooksPath target), lays out the
// mounts, and holds a shared lock on the workspace so that the last
// sandbox to finish removes the placeholders of protected paths that did
// not exist. Inside the sandbox `lite-sandbox __confine` ([confine.Exec])
// adds what bwrap cannot express (a Landlock scope, a seccomp filter with
// argument checks) and executes the command.
//
// A [Spec] is platform neutral. The builders that turn it into bwrap
// arguments ([Layout] and [BwrapArgs]) or an SBPL profile
// ([SeatbeltProfile]) are pure functions in untagged files, so that their
// golden tests run on every OS; only [Detect] and [Prepare] differ per
// platform, and on other systems they return [ErrUnsupported].
//
// Reads are deny-by-default on both platforms: only system directories,
// an allow-list of /etc entries, the workspace and explicit grants are
// visible. The content of $HOME, ~/.ssh and other projects is never
// mounted ($HOME is an empty tmpfs, with the existing [Spec.Tools] and
// [Spec.Caches] bound in; escape class 1 in docs/security-model.md §5), and
// the [Spec.Deny] paths are masked even when they lie inside something
// that is mounted. Inside the writable workspace the [Spec.Protect]
// paths stay read-only (classes 9 to 15).
//
// The parts with a job of their own are packages below this one, which
// import nothing of it (internal/layers checks the order):
// sandbox/probe (what the host offers a sandbox, for doctor),
// sandbox/git (git's state read from its files: the nested repositories
// a command made), sandbox/settings (the user's tool settings, filtered
// of secrets), sandbox/gocacheprog (Go's build cache inside),
// sandbox/egress (network = "allow": the proxy), sandbox/worker (the
// session's persistent worker) and, lowest, sandbox/confine (the step
// inside the sandbox). Above it, sandbox/pathjudge judges the agents'
// own file tools by a [Spec]. AGENTS.md's tree says which file holds
// what.
package sandbox
