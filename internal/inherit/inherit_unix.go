// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package inherit

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// cloexecListed marks the descriptors from first up that dir (the
// process's descriptor directory) lists close-on-exec.
func cloexecListed(first int, dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("list descriptors: %w", err)
	}
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && n >= first {
			unix.CloseOnExec(n) // the directory's own descriptor may be gone
		}
	}
	return nil
}
