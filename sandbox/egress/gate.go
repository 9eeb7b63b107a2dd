// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// The proxy's socket is visible inside the sandbox (it is how the
// bridge reaches the host), so a command can connect to it directly, as
// often as it likes. Every connection costs the process that serves the
// proxy (the launcher, for a session) a descriptor, two once it is
// dialled. Unbounded, one command holding a thousand connections drove
// the launcher to EMFILE and every later request of the session failed
// (issue #27, point 3). The gate bounds what the proxy holds:
//
//   - in all, half of what the descriptor limit leaves after a reserve
//     (the launcher's judge, logs and the dials need some);
//   - per client, a quarter of that: a client is the process group of
//     the connecting process, read from the socket's peer credentials
//     (SO_PEERCRED, unforgeable) and /proc. Each command of a session is
//     its own process group (the worker starts it so), the bridge is
//     another, so one command cannot take what the others and the
//     bridge (every command's proxied traffic) need.
//
// A connection over a bound is answered at once with a 503 line that
// says why, and closed; the first of each client per second is recorded
// (egress.jsonl) without a target, since none was read.

// Bounds of the gate (variables: tests lower them).
var (
	gateCeiling = 8192 // most connections in all, whatever the limit
	gateFloor   = 16   // fewest per client
)

// gate counts the connections the proxy holds, in all and per client.
type gate struct {
	mu       sync.Mutex
	total    int
	per      map[string]int
	maxTotal int
	maxPer   int
	noted    map[string]time.Time // the last turned-away record per client
}

// newGate sizes a gate for a descriptor limit of nofile.
func newGate(nofile uint64) *gate {
	reserve := max(nofile/8, 64)
	total := 0
	if nofile > reserve {
		total = int(min((nofile-reserve)/2, uint64(gateCeiling)))
	}
	total = max(total, 2*gateFloor)
	return &gate{per: map[string]int{}, noted: map[string]time.Time{}, maxTotal: total, maxPer: max(total/4, gateFloor)}
}

// take reserves a connection for client, or reports why not ("" when
// taken).
func (g *gate) take(client string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.per[client] >= g.maxPer:
		return fmt.Sprintf("this command already holds %d connections to the proxy, the most one command may", g.per[client])
	case g.total >= g.maxTotal:
		return fmt.Sprintf("the proxy already holds %d connections, the most it may", g.total)
	}
	g.per[client]++
	g.total++
	return ""
}

func (g *gate) release(client string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.per[client]--; g.per[client] <= 0 {
		delete(g.per, client)
	}
}

// note reports whether a turned-away connection of client is to be
// recorded: the first per second, so that a flood does not flood the log.
func (g *gate) note(client string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if now.Sub(g.noted[client]) < time.Second {
		return false
	}
	if len(g.noted) > 1024 {
		clear(g.noted)
	}
	g.noted[client] = now
	return true
}

// busyAnswer is what a client over a bound hears: an HTTP client reads
// it as a 503 with the reason; a SOCKS5 client sees a broken greeting
// and fails at once (no hang).
const busyAnswer = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n" +
	ErrorHeader + ": lite-sandbox-too-many-connections\r\n\r\n" +
	"lite-sandbox: the egress proxy refused this connection: %s; close some and retry\n"

// ViaAccept is the Via of a connection refused before it named a
// target (turned away by the gate, or one whose request could not be
// read as SOCKS5 or HTTP).
const ViaAccept = "accept"

// NoTarget is the Host of a record refused before the client named a
// target.
const NoTarget = "-"

// noTarget records a request refused before it named a usable target.
func (p *Proxy) noTarget(ctx context.Context, via, why string) {
	p.record(Decision{Command: commandOf(ctx), Host: NoTarget, Result: ResultRefused, Reason: why, Via: via})
}

// turnAway answers and closes a connection over a bound.
func (p *Proxy) turnAway(c net.Conn, client, why string) {
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	fmt.Fprintf(c, busyAnswer, why)
	c.Close()
	if p.gate.note(client) {
		p.record(Decision{Host: NoTarget, Result: ResultRefused, Reason: "too many connections: " + why + " (" + client + ")", Via: ViaAccept})
	}
}

// gatedConn gives its place in the gate back when it is closed.
type gatedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *gatedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

func (c *gatedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}
