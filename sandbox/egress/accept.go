// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"errors"
	"net"
	"time"
)

// acceptLoop hands every connection l accepts to handle, until l is
// closed. A failed accept (EMFILE, ENFILE, ENOBUFS: a command holding
// many connections) is retried after a pause that doubles up to a
// second, so the proxies and bridges recover instead of returning
// (docs/egress.md, "The proxy survives its clients"; escape class 66).
func acceptLoop(l net.Listener, handle func(net.Conn)) error {
	var delay time.Duration
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			time.Sleep(delay)
			continue
		}
		delay = 0
		handle(c)
	}
}
