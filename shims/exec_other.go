// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package shims

import (
	"errors"
	"os"
	"os/exec"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// execve runs the command as a child on systems without exec(2) and
// returns its status as an *exit.Error (only main exits).
func execve(argv, env []string, dir string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &exit.Error{Code: ee.ExitCode()}
	}
	if err != nil {
		return &exit.Error{Code: exit.NotFound, Err: err}
	}
	return &exit.Error{Code: 0}
}
