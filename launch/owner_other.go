// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package launch

import (
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/launch/worker"
)

// checkPrivate fails closed: ownership checks are not implemented here,
// and sessions are not supported anyway.
func checkPrivate(dir string, exact bool) error {
	return fmt.Errorf("%w: %w", ErrInsecure, worker.ErrUnsupported)
}
