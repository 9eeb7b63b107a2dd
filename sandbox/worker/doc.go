// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package worker runs the commands of one lite-sandbox session inside a
// single, long-lived OS sandbox.
//
// The session (package launch) starts the worker inside bwrap with a
// listening Unix socket as file descriptor 3; [ServeFD] serves it. The
// shim, outside the sandbox, hands each command over with [Run]: it sends
// the argv, environment and working directory together with its own
// stdin, stdout and stderr descriptors (SCM_RIGHTS), so the command's
// output goes straight to the agent, and it gets back the exit status.
// Starting a process in an existing sandbox costs a fork and an exec,
// where a fresh bwrap costs milliseconds more (docs/performance.md §3, §4), and
// /tmp and background processes live as long as the session.
//
// # Wire protocol
//
// One connection carries one command. Every message is a frame:
//
//	type    uint8
//	length  uint32, big endian, at most [maxFrame]
//	payload [length]byte
//
// Client to worker:
//
//	'R' run: "LSW3", then the number of extra descriptors (uvarint, at
//	    most [MaxExtra]), dir, argv, env and the token ([EnvToken]),
//	    each string as a uvarint length and its bytes, each list as a
//	    uvarint count first. The
//	    frame carries exactly three descriptors (stdin, stdout, stderr)
//	    plus the extra ones, which the command gets as 3, 4, ..., in one
//	    SCM_RIGHTS message attached to its first byte. It must be the
//	    first frame. (LSW2 had no token, LSW1 no count:
//	    a shim and a worker of different binaries fail with a clear
//	    error.)
//	'S' signal: one byte, the signal number, sent to the command's
//	    process group. Only SIGINT, SIGTERM, SIGHUP and SIGQUIT are
//	    accepted.
//	'P' ping: empty; the worker answers 'p' and closes.
//
// Worker to client:
//
//	'X' exit: uint32 big endian, the status of the command's main
//	    process: its exit code, or 128+N after death by signal N; from
//	    the worker, then two uint64s, when it began to fork the command
//	    and when it reaped it (Unix nanoseconds, the bench's phase
//	    split; in this frame, so that the judge is not woken while the
//	    command runs).
//	'F' failed to start: uint32 status (126 or 127, as bash uses), then
//	    a message.
//	'E' protocol error: a message.
//	'p' pong.
//
// The session's judge (package shims, in the launcher) serves the same
// protocol on judge.sock with [Receive]: the shim sends its own argv
// there, and the judge sends a request of its own to the worker with
// [Start] once it has judged the command.
//
// When the connection closes before the command's main process exits
// (the shim was killed), the worker kills the command's process group
// with SIGKILL. When the command exits, the worker sends 'X' and leaves
// the process group alone, so background jobs keep running until the
// session ends. A connection that ends without 'X' or 'F' means the
// worker died: [Run] returns [ErrWorkerDied].
//
// The worker needs Linux; elsewhere [ServeFD], [Run] and [Ping]
// return [ErrUnsupported] (TODO(macos): sandbox-exec has no PID
// namespace, so a session there needs its own teardown).
package worker
