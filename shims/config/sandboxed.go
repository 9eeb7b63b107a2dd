// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package config

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// probeOnce is [sandbox.Probe], run once per process.
var probeOnce = sync.OnceValues(sandbox.Probe)

// Probe is the cached backend probe ([sandbox.Probe]), read once per
// process: the validator's environment and the shim's Exec both need it.
// A function, not a variable, so that no package can replace it.
func Probe() (sandbox.Backend, error) { return probeOnce() }

// Unsandboxed reports whether a run outside a session executes its
// commands without the OS sandbox in mode m: mode off, or auto without a
// backend that can create a sandbox here.
func Unsandboxed(m policy.Mode) bool {
	switch m {
	case policy.ModeOff:
		return true
	case policy.ModeAuto:
		_, err := Probe()
		return err != nil
	}
	return false // on: sandboxed, or refused
}

// sandboxTmp is $TMPDIR for a command in the Linux sandbox, whose /tmp
// is a private tmpfs: the host's TMPDIR is not mounted there.
const sandboxTmp = "/tmp"

// tmpdir is what $TMPDIR holds for a command in mode m, so that the
// validator can judge "$TMPDIR/cache" as the path it is ("" when
// unknown).
func tmpdir(m policy.Mode, getenv func(string) string) string {
	if runtime.GOOS == "linux" && m != policy.ModeOff {
		return sandboxTmp
	}
	if getenv == nil {
		return ""
	}
	if v := getenv("TMPDIR"); strings.HasPrefix(v, "/") {
		return v
	}
	return ""
}

// WithTmpdir sets TMPDIR in a command's environment to what the
// validator assumed (see tmpdir).
func WithTmpdir(env []string, m policy.Mode) []string {
	if runtime.GOOS != "linux" || m == policy.ModeOff {
		return env
	}
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") })
	return append(env, "TMPDIR="+sandboxTmp)
}
