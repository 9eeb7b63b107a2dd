// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package sandbox

import (
	"errors"
	"runtime"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// ProbeConfinement reports that nothing of the Linux confinement applies.
func ProbeConfinement() Confinement {
	na := "not applicable on " + runtime.GOOS
	return Confinement{SeccompWhy: na, LandlockWhy: na}
}

// ConfineExec is Linux-only.
func ConfineExec(argv []string, env []string) (int, error) {
	return exit.Sandbox, errors.New("confine: not supported on " + runtime.GOOS)
}
