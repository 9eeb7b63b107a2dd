// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix && !linux

package approval

import (
	"os"

	"golang.org/x/sys/unix"
)

// PeerOf is the uid of the process at the other end of the unix socket
// fd (its pid is not known here: 0).
func PeerOf(fd int) (uid, pid int, err error) {
	if c, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED); err == nil {
		return int(c.Uid), 0, nil
	}
	// Without peer credentials only the owner-only directory protects
	// the socket.
	return os.Getuid(), 0, nil
}
