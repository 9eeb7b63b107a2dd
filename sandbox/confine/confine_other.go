// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package confine

import (
	"errors"
	"runtime"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// Probe reports that nothing of the Linux confinement applies.
func Probe() Confinement {
	na := "not applicable on " + runtime.GOOS
	return Confinement{SeccompWhy: na, LandlockWhy: na}
}

// Exec is Linux-only.
func Exec(argv []string, env []string) (int, error) {
	return exit.Sandbox, errors.New("confine: not supported on " + runtime.GOOS)
}

// Run is Linux-only.
func Run(args []string, env []string) (int, error) {
	return exit.Sandbox, errors.New("confine: not supported on " + runtime.GOOS)
}
