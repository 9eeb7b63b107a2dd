// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
)

// The routes the probe of internal/hostprobe takes into the sandboxes:
// `lite-sandbox run`, a shim outside a session (`lite-sandbox shim -c`),
// a command of a session (the ring's /bin/sh is the shim: the session's
// command sandbox), a program in the agent ring (launch exec of a
// program that is not a shell), and the host itself (the control).
var sandboxRoutes = []string{"run", "shim", "session", "ring"}

// landlockRoutes are the routes under the Landlock backend (#28;
// LITE_SANDBOX_BACKEND=landlock, on this host: Landlock needs no user
// namespace). A session command is reached through the session's $SHELL
// (the shim); landlock-ring is a program in the Landlock agent ring
// (launch exec of the probe, from the workspace: the ring does not grant
// the test's temporary directory).
var landlockRoutes = []string{"landlock-run", "landlock-shim", "landlock-session", "landlock-container", "landlock-ring"}

// hostProbe runs the probe by route with spec and extra as descriptors
// 3, 4, ... (nil entries stay closed), and returns its report.
func (e *env) hostProbe(route string, spec hostprobe.Spec, extra []*os.File) hostprobe.Report {
	e.t.Helper()
	// A copy in the workspace: the command sandbox shows the workspace,
	// not the test's temporary directory.
	inWS := filepath.Join(e.ws, "hostprobe")
	if _, err := os.Stat(inWS); err != nil {
		b, err := os.ReadFile(probeBinary)
		if err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(inWS, b, 0o755); err != nil {
			e.t.Fatal(err)
		}
	}
	spec.Out = filepath.Join(e.ws, ".hostprobe-"+route+".json")
	os.Remove(spec.Out)
	specFile := filepath.Join(e.ws, ".hostprobe-"+route+".spec")
	raw, _ := json.Marshal(spec)
	if err := os.WriteFile(specFile, raw, 0o644); err != nil {
		e.t.Fatal(err)
	}
	var argv, vars []string
	if r, ok := strings.CutPrefix(route, "landlock-"); ok {
		route, vars = r, []string{"LITE_SANDBOX_BACKEND=landlock"}
		if r == "session" {
			route = "landlock-session"
		}
	}
	switch route {
	case "host":
		argv = []string{probeBinary, hostprobe.Arg, specFile}
	case "run":
		argv = []string{binary, "run", "--sandbox", "on", "--", inWS, hostprobe.Arg, specFile}
	case "shim":
		argv = []string{binary, "shim", "-c", inWS + " " + hostprobe.Arg + " " + specFile}
	case "session":
		argv = []string{binary, "launch", "--sandbox", "on", "exec", "--", "/bin/sh", "-c", inWS + " " + hostprobe.Arg + " " + specFile}
	case "landlock-session":
		argv = []string{binary, "launch", "--sandbox", "on", "exec", "--", "/bin/sh", "-c", `"$SHELL" -c "$0 $1 $2"`, inWS, hostprobe.Arg, specFile}
	case "container":
		// `run` in the simulated container (landlock_test.go).
		argv = containerArgv(binary, "run", "--sandbox", "on", "--", inWS, hostprobe.Arg, specFile)
	case "ring":
		prog := probeBinary
		if vars != nil {
			prog = inWS
		}
		argv = []string{binary, "launch", "--sandbox", "on", "exec", "--", prog, hostprobe.Arg, specFile}
	default:
		e.t.Fatalf("no route %q", route)
	}
	out, code := e.runWith(argv, vars, extra)
	if vars != nil && !strings.Contains(out, "landlock backend (ABI ") {
		e.t.Errorf("probe by landlock-%s: not under the Landlock backend (exit %d):\n%s", route, code, out)
	}
	if vars != nil && route == "ring" && !strings.Contains(out, "agent ring: landlock") {
		e.t.Errorf("probe by landlock-ring: not in the Landlock ring (exit %d):\n%s", code, out)
	}
	b, err := os.ReadFile(spec.Out)
	if err != nil {
		e.t.Fatalf("probe by %s: no report (exit %d): %v\n%s", route, code, err, out)
	}
	var r hostprobe.Report
	if err := json.Unmarshal(b, &r); err != nil {
		e.t.Fatal(err)
	}
	return r
}

// runWith runs argv in the workspace as e's user, with e's environment
// plus vars and the extra descriptors, under a hang guard; it returns
// the combined output and the exit status.
func (e *env) runWith(argv, vars []string, extra []*os.File) (string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = e.ws
	cmd.Env = append(append([]string{}, e.vars...), vars...)
	cmd.ExtraFiles = extra
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	e.chownTree()
	e.credential(cmd)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("%v: timed out\n%s", argv, out.String())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("%v: %v", argv, err)
	}
	return out.String(), 0
}
