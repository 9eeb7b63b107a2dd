// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// DialRing returns a new connection to the session's judge from the
// Landlock agent ring (#28), which has no Unix socket of its own below
// Landlock ABI 9: its seccomp filter refuses socket(AF_UNIX), so that
// no host socket is reachable by its path (escape classes 16 to 18).
// socket(AF_UNIX, SOCK_STREAM, contract.JudgeProto) is the one
// exception: the filter sends that call to the launcher, which answers
// it with a socket connected to judge.sock (launch's superviseJudge).
// Nothing is inherited, so a program that closes its descriptors before
// it starts a shell (Claude Code's native build, Python's subprocess)
// does not cut its shell off, and nothing is copied from another
// process, which Yama and container seccomp profiles refuse. Outside
// the ring the kernel refuses the protocol (EPROTONOSUPPORT).
func DialRing() (*net.UnixConn, error) {
	s, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, contract.JudgeProto)
	if err != nil {
		return nil, fmt.Errorf("%w (the agent ring's filter gave no connection to the judge: %v)", ErrNoWorker, err)
	}
	f := os.NewFile(uintptr(s), "judge")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("the judge's connection: %w", err)
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("%w (the agent ring's filter gave no Unix connection)", ErrNoWorker)
	}
	return uc, nil
}
