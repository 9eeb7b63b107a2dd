// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !unix

package contract

import (
	"errors"
	"fmt"
)

// CheckPrivate fails closed: ownership checks are not implemented here,
// and sessions are not supported anyway.
func CheckPrivate(dir string, exact bool) error {
	return fmt.Errorf("%w: %w", ErrInsecure, errUnsupported)
}

var errUnsupported = errors.New("sessions are not supported on this system")
