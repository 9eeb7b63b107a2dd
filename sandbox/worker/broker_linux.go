// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// DialBroker asks the broker at descriptor fd (one end of a
// SOCK_SEQPACKET pair whose other end the launcher holds) for a new
// connection to the session's judge, and returns it. The Landlock agent
// ring (#28) has no Unix socket of its own below Landlock ABI 9 (the
// seccomp filter refuses socket(AF_UNIX), so that no host socket is
// reachable by its path, escape classes 16 to 18): the launcher, on the
// host, connects to judge.sock for it and passes the connection over
// (SCM_RIGHTS). Replies are interchangeable, so processes that share the
// descriptor may take one another's: each request gets one.
func DialBroker(fd int) (*net.UnixConn, error) {
	if _, err := unix.Write(fd, []byte{'c'}); err != nil {
		return nil, fmt.Errorf("%w (the judge's broker, descriptor %d: %v)", ErrNoWorker, fd, err)
	}
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("%w (the judge's broker: %v)", ErrNoWorker, err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, fmt.Errorf("%w (the judge's broker sent no connection)", ErrNoWorker)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		for _, f := range fds {
			unix.Close(f)
		}
		return nil, fmt.Errorf("%w (the judge's broker sent no connection)", ErrNoWorker)
	}
	f := os.NewFile(uintptr(fds[0]), "judge")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("the judge's broker: %w", err)
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("%w (the judge's broker sent no Unix connection)", ErrNoWorker)
	}
	return uc, nil
}
