// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command lite-sandbox-shim is the shim alone: what agents run as their
// shell (and, in the agent ring, every shell binary and git), bundled
// and installed beside lite-sandbox. In a session it is a small
// forwarder (package forward) to the session's judge in the launcher;
// it also serves the session's worker and the confinement step inside
// the sandbox. Everything else (a shim outside a session, the egress
// bridge) it hands to the lite-sandbox binary beside it, in the same
// process (execve). It links no policy, no shell parser and no HTTP, so
// that it starts about as fast as an empty Go program: it runs once per
// command (docs/performance.md, "The session path").
package main

import (
	"os"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/netroute"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
)

// envEgressSocket is egress.EnvSocket (a test checks it), named here so
// that the shim does not link the proxy: with network = "allow" the
// confinement step starts the bridge, which only lite-sandbox has.
const envEgressSocket = "LITE_SANDBOX_EGRESS"

func main() {
	os.Exit(run(os.Args, time.Now()))
}

func run(args []string, t0 time.Time) int {
	switch {
	case len(args) == 2 && args[1] == contract.WorkerCommand:
		// The session's worker, inside the sandbox.
		err := worker.ServeFD(3)
		esc.Fprintf(os.Stderr, "lite-sandbox: worker: %v\n", err)
		return exit.Sandbox
	case confine.IsCommand(args) && os.Getenv(envEgressSocket) == "":
		code, err := confine.Run(args[2:], os.Environ())
		esc.Fprintf(os.Stderr, "lite-sandbox: %v\n", err)
		return code
	case len(args) >= 2 && args[1] == netroute.Command:
		// network = "open": the routes of an unprivileged sandbox's
		// namespace (sandbox.Prepared.Start runs it through nsenter).
		return netroute.Main(args[2:])
	case len(args) >= 2 && args[1] == gocacheprog.Command:
		// The Go build cache inside the sandbox, started by the go command.
		if err := gocacheprog.Main(args[2:], os.Stdin, os.Stdout); err != nil {
			esc.Fprintf(os.Stderr, "lite-sandbox: %v\n", err)
			return exit.Failed
		}
		return 0
	case confine.IsCommand(args):
		// With a proxy socket (the agent ring's network, #27): the
		// bridge is lite-sandbox's, below.
	case len(args) > 0 && forward.IsShimName(args[0]):
		if dir := forward.Session(); dir != "" {
			return forward.Run(dir, args, os.Stderr, t0)
		}
		if forward.IsGitName(args[0]) {
			err := forward.ExecGit(args)
			esc.Fprintf(os.Stderr, "lite-sandbox: %v\n", err)
			return exit.NotFound
		}
	}
	// Not the session path: lite-sandbox does it, in this process.
	main, err := forward.MainBinary()
	if err == nil {
		err = syscall.Exec(main, args, os.Environ())
	}
	esc.Fprintf(os.Stderr, "lite-sandbox-shim: %v (outside a session the shim needs lite-sandbox beside it)\n", err)
	return exit.Sandbox
}
