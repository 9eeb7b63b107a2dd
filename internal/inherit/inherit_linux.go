// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package inherit

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// cloexecFrom marks every descriptor from first up close-on-exec, in one
// close_range(2) call (Linux 5.11), or one by one on older kernels.
func cloexecFrom(first int) error {
	err := unix.CloseRange(uint(first), ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("close_range: %w", err)
	}
	return cloexecListed(first, "/proc/self/fd")
}
