// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package launch runs one agent session: a private runtime directory, one
// long-lived sandboxed worker that every command of the session runs in,
// and the agent itself with its shell pointed at the shim. On Linux with
// a backend the agent starts inside the agent ring (package launch/ring,
// ringrun.go: an outer
// bubblewrap where the host is read-only but for the workspace and the
// agent's state, and every shell binary is the shim; docs/ring.md,
// docs/security-model.md §2); otherwise (no backend in mode auto, mode
// off, macOS) it runs on the host with the user's rights.
//
// [Open] creates the session:
//
//	<runtime root>/<random id>/      mode 0700
//	    judge.sock    the judge's socket (Options.Judge): every shim sends its command here
//	    worker.sock   the worker's listening socket (with a judge: only the judge's token runs)
//	    policy.toml   the frozen policy, for the person and the rings; the
//	                  judge is given it in memory and never reads it back
//	    session.json  workspace, home, mode... for the shim ([Options.Meta])
//	    bin/bash      a link to the shim (lite-sandbox-shim beside the
//	                  lite-sandbox binary, else lite-sandbox itself)
//	    pid           the owner's pid, for stale-directory cleanup
//	    worker.log    the worker's stdout and stderr, and restarts
//
// and starts the worker (`lite-sandbox __worker`, see package
// [github.com/lite-sandbox/lite-sandbox/sandbox/worker]) inside bwrap,
// with the listening socket as descriptor 3. The socket's directory is
// not mounted in the sandbox, so commands cannot reach it. Because every
// command of the session runs in the same sandbox, /tmp and background
// processes persist between commands; they end with the session, when
// [Session.Close] kills the sandbox's PID namespace, or when the owner
// dies (bwrap's --die-with-parent).
//
// [RunAgent] runs the agent (an adapter's, or `launch exec`'s program)
// with $SHELL and [contract.EnvShim] pointing at bin/bash and
// [contract.EnvSession] at the directory; the shim (package
// shims/forward) sends each command to judge.sock, where the judge
// (shims.Judge, in this process) decides, runs it through the worker and
// writes its audit record.
//
// Sessions need Linux (bwrap); elsewhere [Open] returns
// [worker.ErrUnsupported].
package launch
