// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package term is the launcher's terminal: the agent on a pty
// ([Run], run_unix.go) with job control that works (Ctrl-Z stops the
// agent and fg resumes it: jobctl_*.go), the leader of the agent's pty
// session, `lite-sandbox __pty` ([LeaderCommand], [ServeLeader],
// ptyleader_unix.go), which is also the subreaper of the agent ring and
// waits for every process of it (reap_linux.go), the launcher's own
// confirm line for an `ask` rule's question ([Confirm], confirm_unix.go;
// the keys it reads: keys.go; docs/validator.md §8), and which process is
// the agent itself ([IsAgent], agent_linux.go: only the agent's own hook
// may ask, docs/validator.md §8.2). The confirm line shows text from
// inside with its control characters made visible ([Visible]).
package term
