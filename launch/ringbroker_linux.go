// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// judgeBroker sets up how the Landlock agent ring reaches the session's
// judge (#28). Below Landlock ABI 9 the ring's seccomp filter refuses
// socket(AF_UNIX), so that no host socket is reachable by its path;
// socket(AF_UNIX, SOCK_STREAM, contract.JudgeProto) instead goes to the
// launcher (a user notification), which answers it with a connection
// to judgeSock: the ring reaches the judge and nothing else. The
// filter's listener comes over one end of a SOCK_SEQPACKET pair the
// ring's confinement step inherits (the broker, descriptor 3) and sends
// it over before it starts the agent. It returns the ring's end (the
// caller passes it to the agent and closes it once started) and a stop
// function.
func judgeBroker(judgeSock string) (*os.File, func(), error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("launch: the judge's broker: %w", err)
	}
	// The launcher's end is read through the runtime's poller.
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("launch: the judge's broker: %w", err)
	}
	host := os.NewFile(uintptr(fds[0]), "judge-broker")
	ring := os.NewFile(uintptr(fds[1]), "judge-broker-ring")
	stopped := make(chan struct{})
	go serveBroker(host, judgeSock, stopped)
	return ring, func() { close(stopped); host.Close() }, nil
}

// serveBroker takes the first message on host, which carries the ring
// filter's listener (sent by the confinement step before any ring
// process runs), supervises it, and closes host: later messages would
// be ring processes' own.
func serveBroker(host *os.File, judgeSock string, stopped <-chan struct{}) {
	defer host.Close()
	raw, err := host.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4*4))
	var n, oobn int
	var rerr error
	if err := raw.Read(func(fd uintptr) bool {
		n, oobn, _, _, rerr = unix.Recvmsg(int(fd), buf, oob, unix.MSG_DONTWAIT|unix.MSG_CMSG_CLOEXEC)
		return !errors.Is(rerr, unix.EAGAIN)
	}); err != nil || rerr != nil || n == 0 {
		return // closed before the ring started
	}
	if listener := receivedFD(oob[:oobn]); listener >= 0 {
		if buf[0] != 'l' {
			unix.Close(listener)
			return
		}
		superviseJudge(listener, judgeSock, stopped)
	}
}

// receivedFD returns the one descriptor a message carried, or -1 (and
// closes any others).
func receivedFD(oob []byte) int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return -1
	}
	got := -1
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if got < 0 {
				got = fd
			} else {
				unix.Close(fd)
			}
		}
	}
	return got
}
