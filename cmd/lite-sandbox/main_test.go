// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lite-sandbox/lite-sandbox/internal/bwraptest"
	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
)

// TestMain lets the scripts run the binary as "lite-sandbox" and, under
// a shell-like name, as the shim.
func TestMain(m *testing.M) {
	// Under any shell's name (a link named sh, dash, ... as the agent
	// ring makes them) or git's, and as a session's recorded binary running its
	// own hook command, the test binary is lite-sandbox.
	if forward.IsShimName(os.Args[0]) || len(os.Args) > 2 && os.Args[1] == "hook" {
		os.Exit(Main(os.Args, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"lite-sandbox":      func() { os.Exit(Main(os.Args, os.Stdout, os.Stderr)) },
		"lite-sandbox-shim": func() { os.Exit(Main(os.Args, os.Stdout, os.Stderr)) },
		// A session's shim is <session>/bin/bash, a link to the binary.
		"bash": func() { os.Exit(Main(os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar. Scripts that need bubblewrap
// use the [bwrap] condition; when LITE_SANDBOX_REQUIRE_BWRAP=1 (set by
// scripts/test) a missing bwrap fails instead of skipping.
func TestScripts(t *testing.T) {
	_, err := exec.LookPath("bwrap")
	haveBwrap := err == nil && runtime.GOOS == "linux"
	if !haveBwrap && bwraptest.Required() {
		t.Fatalf("bwrap is required (%s=1) but not found", bwraptest.EnvRequire)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "bwrap":
				return haveBwrap, nil
			case "root":
				return os.Geteuid() == 0, nil
			case "landlock":
				return confine.Probe().LandlockABI >= 1, nil
			}
			return false, nil
		},
		Setup: func(env *testscript.Env) error {
			// A home of its own, outside $WORK's tmp... the sandbox hides it
			// either way; XDG_CONFIG_HOME keeps a developer's own policy
			// file out of the tests.
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/xdg")
			// testscript's default HOME, /no-home, is a host path: a
			// launch as root would create the agents' state there, and
			// a later script would depend on it. Each script has its own.
			home := env.WorkDir + "/home"
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("LITE_SANDBOX_CONFIG", "")
			// The audit log goes to $WORK, not to the real home.
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/state")
			// The one list of shell names the ring binds (ring_shells.txtar).
			env.Setenv("LITE_SANDBOX_TEST_SHELLS", strings.Join(shellname.Names, " "))
			return nil
		},
	})
}
