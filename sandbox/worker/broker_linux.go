// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"errors"
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/procstat"
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
//
// A program that closes inherited descriptors before it starts a shell
// (Claude Code's native build, Python's subprocess) leaves the shim
// without it: the shim then takes a copy from the nearest ancestor that
// still holds it ([ancestorBroker]).
func DialBroker(fd int) (*net.UnixConn, error) {
	if !isBroker(fd) {
		got, err := ancestorBroker(fd)
		if err != nil {
			return nil, err
		}
		defer unix.Close(got)
		fd = got
	}
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

// isBroker says whether fd is a SOCK_SEQPACKET socket (the broker's end).
func isBroker(fd int) bool {
	t, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TYPE)
	return err == nil && t == unix.SOCK_SEQPACKET
}

// brokerAncestors bounds the walk up the process tree.
const brokerAncestors = 32

// ancestorBroker copies descriptor fd of the nearest ancestor where it
// is the broker (pidfd_getfd: the ancestors are in the same Landlock
// domain, so Landlock lets it; under Yama's ptrace_scope 1 the agent's
// process has named itself its descendants' ptracer, confine's
// allowBrokerCopies; scope 2 or 3, or a seccomp profile without
// pidfd_getfd, refuses it, and the shim then fails closed, saying
// which). A ring process could put another
// socket there: whatever answers it is the ring's own, so the shim's
// command would run no further out than the ring.
func ancestorBroker(fd int) (int, error) {
	pid := os.Getppid()
	refused := false
	for range brokerAncestors {
		if pid <= 1 {
			break
		}
		if pfd, err := unix.PidfdOpen(pid, 0); err == nil {
			got, gerr := unix.PidfdGetfd(pfd, fd, 0)
			unix.Close(pfd)
			if gerr == nil {
				if isBroker(got) {
					return got, nil
				}
				unix.Close(got)
			}
			refused = refused || errors.Is(gerr, unix.EPERM)
		}
		pid = procstat.Parent(pid)
	}
	if refused {
		return -1, fmt.Errorf("%w (the judge's broker: copying descriptor %d from an ancestor was refused: Yama's ptrace_scope above 1 or a seccomp profile without pidfd_getfd; docs/ring.md)", ErrNoWorker, fd)
	}
	return -1, fmt.Errorf("%w (the judge's broker: descriptor %d is not open here nor in an ancestor this process may read)", ErrNoWorker, fd)
}
