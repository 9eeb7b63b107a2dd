// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build unix

package launch

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// watchContinued tells recent each time this process is continued after
// a stop, until the returned function is called.
func watchContinued(recent *egress.Recent) (stop func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGCONT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-c:
				recent.Continued(os.Getpid())
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(c); close(done) }
}
