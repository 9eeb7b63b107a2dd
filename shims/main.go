// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"fmt"
	"github.com/lite-sandbox/lite-sandbox/internal/netroute"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/inherit"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
)

// Dispatch runs what the per-command path of either binary is asked to
// do: the in-sandbox steps (`__confine -- ARGV`, the session worker, the
// egress bridge) and
// the shim under a shell's name. It reports false when args are none of
// these, for the main binary to parse as its command line.
func Dispatch(args []string, stderr io.Writer) (status int, handled bool) {
	switch {
	case len(args) == 2 && args[1] == contract.WorkerCommand:
		// The session's worker, inside the sandbox.
		err := worker.ServeFD(3)
		esc.Fprintf(stderr, "lite-sandbox: worker: %v\n", err)
		return exit.Sandbox, true
	case confine.IsCommand(args):
		// network = "allow": the bridge to the proxy starts first.
		env, err := startBridge(os.Environ())
		if err != nil {
			esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
			return exit.Sandbox, true
		}
		code, err := confine.Run(args[2:], env)
		esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
		return code, true
	case len(args) >= 2 && args[1] == netroute.Command:
		// network = "open": the routes of an unprivileged sandbox's
		// namespace, run by nsenter from sandbox.Prepared.Start.
		return netroute.Main(args[2:]), true
	case len(args) == 3 && args[1] == egress.BridgeCommand:
		err := egress.ServeBridge(args[2])
		esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
		return exit.Sandbox, true
	case len(args) >= 2 && args[1] == gocacheprog.Command:
		// The Go build cache inside the sandbox, started by the go command.
		if err := gocacheprog.Main(args[2:], os.Stdin, os.Stdout); err != nil {
			esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
			return exit.Failed, true
		}
		return 0, true
	case len(args) == 4 && args[1] == egress.ForwardCommand:
		// agent.host_ports: the granted host ports inside the ring.
		err := egress.ServeForward(args[2], args[3])
		esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
		return exit.Sandbox, true
	case len(args) > 0 && forward.IsShimName(args[0]):
		// Under a shell's name (as agents run it through SHELL, and every
		// shell is in the agent ring), git's, or the shim binary's own.
		if dir := forward.Session(); dir != "" {
			// The session's judge decides and runs it (judge_linux.go).
			return forward.Run(dir, args, stderr, time.Now()), true
		}
		if forward.IsGitName(args[0]) {
			err := forward.ExecGit(args)
			esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
			return exit.NotFound, true
		}
		return ExitStatus(Run(args[0], args[1:], "", stderr), stderr), true
	}
	return 0, false
}

// Run loads the configuration and runs the shim for the shell named
// argv0; inside a session it forwards to the session's judge.
func Run(argv0 string, args []string, configFile string, stderr io.Writer) error {
	// Outside a session this process starts the sandbox itself: what it
	// inherited above stderr must not reach it (escape class 57). In a
	// session only stdin, stdout and stderr go to the judge.
	if err := inherit.Seal(); err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("sandbox: %w", err)}
	}
	c, err := config.Load(config.Options{ConfigFile: configFile})
	if err != nil {
		return err
	}
	if c.Session != nil {
		// In a session only its judge decides, runs and records.
		return &exit.Error{Code: forward.Run(c.Session.Dir, append([]string{argv0}, args...), stderr, time.Now())}
	}
	s, err := New(c, stderr)
	if err != nil {
		return err
	}
	return s.RunShellAs(argv0, args)
}

// ExitStatus prints err (one paragraph) and maps it to the exit status
// of the table in internal/exit.
func ExitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *exit.Error
	if errors.As(err, &ee) {
		if ee.Err != nil {
			msg := esc.Error(ee.Err)
			if !strings.HasPrefix(msg, "lite-sandbox") {
				msg = "lite-sandbox: " + msg
			}
			fmt.Fprintln(stderr, msg)
		}
		return ee.Code
	}
	esc.Fprintf(stderr, "lite-sandbox: %v\n", err)
	return exit.Failed
}

// startBridge starts the egress bridge when the sandbox's network is
// "allow" (the proxy socket is in the environment), from this binary.
func startBridge(env []string) ([]string, error) {
	if os.Getenv(egress.EnvSocket) == "" {
		return env, nil
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		exe = "/proc/self/exe"
	}
	return egress.StartBridge(exe, env)
}
