// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"io"
	"net"
	"sync/atomic"
	"time"
)

// stalledAnswer is what an HTTP client hears when the proxy took its
// connection but never answered (the launcher is stopped): a clear
// line instead of a hang until the client's own timeout.
const stalledAnswer = "HTTP/1.1 504 Gateway Timeout\r\nContent-Type: text/plain\r\nConnection: close\r\n" +
	ErrorHeader + ": lite-sandbox-proxy-stalled\r\n\r\n" +
	"lite-sandbox: the egress proxy on the host does not answer (the launcher is stopped or hung); the connection was closed\n"

// carry pipes one connection to the proxy. While the proxy sends
// nothing for answerWait, the bridge pings it; when the ping goes
// unanswered too, the connection is closed (an HTTP client that never
// heard from the proxy gets stalledAnswer first), so a stopped launcher
// costs a command a bounded wait, not its whole timeout. A slow remote
// server does not trip it: the proxy itself still answers the ping.
func (h *health) carry(c net.Conn) {
	up, err := net.DialTimeout("unix", h.sock, h.pingTimeout)
	if err != nil {
		c.Close()
		return
	}
	var last atomic.Int64
	var answered atomic.Bool
	var first atomic.Int32
	last.Store(time.Now().UnixNano())
	first.Store(-1)
	wu := &watchedConn{Conn: up, onRead: func([]byte) { last.Store(time.Now().UnixNano()); answered.Store(true) }}
	wc := &watchedConn{Conn: c, onRead: func(b []byte) { first.CompareAndSwap(-1, int32(b[0])) }}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(h.answerWait / 2)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if time.Since(time.Unix(0, last.Load())) < h.answerWait || h.alive() {
				continue
			}
			if !answered.Load() && first.Load() != socksVersion {
				io.WriteString(c, stalledAnswer)
			}
			c.Close()
			up.Close()
			return
		}
	}()
	pipe(wc, wu)
	close(done)
}

// watchedConn calls onRead with every non-empty read.
type watchedConn struct {
	net.Conn
	onRead func([]byte)
}

func (w *watchedConn) Read(b []byte) (int, error) {
	n, err := w.Conn.Read(b)
	if n > 0 {
		w.onRead(b[:n])
	}
	return n, err
}

func (w *watchedConn) CloseWrite() error {
	if cw, ok := w.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return w.Conn.Close()
}
