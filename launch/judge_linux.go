// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
)

// judgeServer is the launcher's side of the session's judge socket
// (contract.JudgeName): every shim of the session sends its command
// there, one per connection, and the judge decides, runs it through the
// worker and writes its audit record (docs/performance.md, "The session
// path"). There is no other way into the audit log from the agent ring:
// a ring process that connects here only runs a command, judged and
// recorded as what it is.
type judgeServer struct {
	l *net.UnixListener
}

// startJudge makes the session's judge with newJudge (the session's
// files are written) and serves it on <dir>/judge.sock.
func startJudge(dir, token string, newJudge func(dir, token string) (Judge, error)) (*judgeServer, error) {
	j, err := newJudge(dir, token)
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, contract.JudgeName), Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("session: judge socket: %w", err)
	}
	js := &judgeServer{l: l}
	go js.serve(j)
	return js, nil
}

// serve accepts until the listener closes; a failed accept (out of
// descriptors) waits a little instead of ending the session's commands.
func (js *judgeServer) serve(j Judge) {
	var delay time.Duration
	for {
		c, err := js.l.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			time.Sleep(delay)
			continue
		}
		delay = 0
		go j.ServeConn(c)
	}
}

func (js *judgeServer) close() {
	if js != nil {
		js.l.Close()
	}
}
