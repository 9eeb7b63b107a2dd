// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"errors"
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// judgeBroker serves the Landlock agent ring's requests for connections
// to the session's judge (#28). Below Landlock ABI 9 the ring's seccomp
// filter refuses socket(AF_UNIX), so that no host socket is reachable
// by its path; its shims ask the broker instead, over one end of a
// SOCK_SEQPACKET pair the ring inherits (worker.DialBroker). For each
// request the launcher, on the host, connects to the judge's socket and
// passes the connection over: the ring reaches the judge and nothing
// else. It returns the ring's end (the caller passes it to the agent
// and closes it once started) and a stop function.
func judgeBroker(judgeSock string) (*os.File, func(), error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("launch: the judge's broker: %w", err)
	}
	// The launcher's end is served through the runtime's poller; the
	// ring's stays blocking (DialBroker).
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("launch: the judge's broker: %w", err)
	}
	host := os.NewFile(uintptr(fds[0]), "judge-broker")
	ring := os.NewFile(uintptr(fds[1]), "judge-broker-ring")
	go serveBroker(host, judgeSock)
	return ring, func() { host.Close() }, nil
}

// serveBroker answers each request on host with one connection to
// judgeSock (or none, when it cannot connect: the shim then fails
// closed), until host is closed.
func serveBroker(host *os.File, judgeSock string) {
	raw, err := host.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, 16)
	for {
		var n int
		var rerr error
		if err := raw.Read(func(fd uintptr) bool {
			n, _, rerr = unix.Recvfrom(int(fd), buf, unix.MSG_DONTWAIT)
			return !errors.Is(rerr, unix.EAGAIN)
		}); err != nil || rerr != nil || n == 0 {
			return // closed: the session ended, or every ring process is gone
		}
		var rights []byte
		c, err := net.Dial("unix", judgeSock)
		var f *os.File
		if err == nil {
			f, err = c.(*net.UnixConn).File()
			c.Close()
		}
		if err == nil {
			rights = unix.UnixRights(int(f.Fd()))
		}
		raw.Write(func(fd uintptr) bool {
			err := unix.Sendmsg(int(fd), []byte{'c'}, rights, nil, unix.MSG_DONTWAIT)
			return !errors.Is(err, unix.EAGAIN)
		})
		if f != nil {
			f.Close()
		}
	}
}
