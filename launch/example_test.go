// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/launch/contract"
	"github.com/lite-sandbox/lite-sandbox/launch/worker"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// The launcher: one session around the agent's whole run.
func ExampleOpen() {
	ctx := context.Background()
	pol := policy.Default()
	ws, home := "/home/me/project", "/home/me"
	b, err := sandbox.Detect()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	spec, err := pol.SandboxSpec(ws, home, "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	frozen, _ := pol.Marshal()
	s, err := launch.Open(ctx, launch.Options{
		Spec:       spec,
		Backend:    b,
		PolicyTOML: frozen,
		Meta:       map[string]string{"workspace": ws, "home": home, "mode": "auto"},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err) // a *launch.StartError carries the worker's log
		return
	}
	defer s.Close()
	status, err := launch.Exec(ctx, s, []string{"claude"}, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	fmt.Println("agent exit status", status)
}

// The shim, when $LITE_SANDBOX_SESSION is set: the judged command runs in
// the session's worker with the shim's own stdio.
func ExampleAttach() {
	a, err := contract.Attach(os.Getenv(contract.EnvSession))
	if err != nil {
		fmt.Fprintln(os.Stderr, err) // fail closed: exit 71
		return
	}
	var meta struct{ Workspace, Home, Mode string }
	if err := a.DecodeMeta(&meta); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	status, err := worker.Run(context.Background(), a.Socket, worker.Request{
		Argv: []string{"/bin/bash", "--noprofile", "--norc", "-c", "make test"},
		Env:  os.Environ(),
		Dir:  meta.Workspace,
	}, os.Stdin, os.Stdout, os.Stderr)
	var se *worker.StartError
	switch {
	case err == nil, errors.As(err, &se):
		os.Exit(status)
	case errors.Is(err, worker.ErrWorkerDied):
		// It may have run in part: report, never run it again.
	case errors.Is(err, worker.ErrNoWorker):
		// The session is gone; the command did not run.
	}
	fmt.Fprintln(os.Stderr, err)
}
