// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package sandbox turns the sandbox part of a policy into an OS sandbox
// around one command: bubblewrap (bwrap) on Linux, sandbox-exec on macOS.
//
// The flow is:
//
//	spec, err := sandbox.FromPolicy(pol, workspace, home, cwd)
//	backend, detectErr := sandbox.Detect()
//	status, err := sandbox.Resolve(mode, backend, detectErr, workspace, home)
//	path, args, err := sandbox.Command(backend, spec, argv)
//
// A [Spec] is platform neutral. The builders that turn it into bwrap
// arguments ([Layout] and [BwrapArgs]) or an SBPL profile
// ([SeatbeltProfile]) are pure functions in untagged files, so that their
// golden tests run on every OS; only [Detect] and [Command] differ per
// platform, and on other systems they return [ErrUnsupported].
//
// Reads are deny-by-default on both platforms: only system directories,
// an allow-list of /etc entries, the workspace and explicit grants are
// visible. $HOME, ~/.ssh and other projects are never mounted (escape
// class 1 in docs/threat-model.md §5), and the [Spec.Deny] paths are
// masked even when they lie inside something that is mounted.
package sandbox
