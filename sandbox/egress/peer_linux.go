// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"net"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/procstat"
)

// clientOf names the client of a connection for the gate (gate.go): the
// process group of the process that connected, from the socket's peer
// credentials, which the kernel records at connect() and the client
// cannot forge. A process that left its command's group (setpgid,
// setsid) counts as a client of its own; the bound in all still holds.
func clientOf(c net.Conn) string {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return "other"
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return "other"
	}
	var cred *unix.Ucred
	raw.Control(func(fd uintptr) {
		cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	})
	if err != nil || cred == nil || cred.Pid <= 0 {
		return "other"
	}
	if g := procstat.Group(int(cred.Pid)); g > 0 {
		return "group " + strconv.Itoa(g)
	}
	return "pid " + strconv.Itoa(int(cred.Pid))
}

// descriptorLimit is this process's soft RLIMIT_NOFILE (Go raises it to
// the hard limit at start).
func descriptorLimit() uint64 {
	var r unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &r); err != nil || r.Cur == unix.RLIM_INFINITY {
		return 1 << 20
	}
	return r.Cur
}
