// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package shims

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
)

// execve replaces the process, so that stdio, the exit status and signals
// belong to the command with nothing of ours in between.
func execve(argv, env []string, dir string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return &exit.Error{Code: exit.NotFound, Err: fmt.Errorf("lite-sandbox: %w", err)}
	}
	if err := os.Chdir(dir); err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("lite-sandbox: %w", err)}
	}
	err = syscall.Exec(path, argv, env)
	return &exit.Error{Code: exit.NotExecutable, Err: fmt.Errorf("lite-sandbox: exec %s: %w", path, err)}
}
