// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"context"
	"fmt"
	"os"

	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// The launcher: one session around the agent's whole run. It needs
// bubblewrap and a real workspace, so it is compiled, not run; the
// shim's side, with output, is contract's ExampleAttach, and
// the session tests (TestSessionDir, ...) run the same steps.
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
