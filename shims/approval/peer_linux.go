// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package approval

import "golang.org/x/sys/unix"

// PeerOf is the uid and pid (in the caller's PID namespace) of the
// process at the other end of the unix socket fd.
func PeerOf(fd int) (uid, pid int, err error) {
	c, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, 0, err
	}
	return int(c.Uid), int(c.Pid), nil
}
