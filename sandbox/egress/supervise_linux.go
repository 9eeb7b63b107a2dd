// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The bridge is supervised by a pair of processes inside the sandbox:
// the server carries connections, a standby holds the same listening
// sockets and one end of a socket pair with the server. When either
// dies (killed from the host, or by a command), the other sees the pair
// close: a standby becomes the server, a server starts a new standby.
// The listening sockets never close in between, so a connection made
// meanwhile waits in the backlog rather than being refused. Only when
// both die at once is the network gone; then the ports refuse at once
// (nothing holds them), and the proxy, which no longer sees the
// server's presence connection, tells the session (OnBridge), so the
// explanation after a failed command says it has no network.

// envBridgeRole tells a bridge process it is the standby (descriptor 5
// is its end of the pair).
const envBridgeRole = "LITE_SANDBOX_EGRESS_ROLE"

// Supervision limits: the first standby starts only after
// standbyDelay (a short command never pays for one); at most
// maxRespawns standbys per minute.
var (
	standbyDelay = time.Second
	maxRespawns  = 10
)

// ServeBridge is `__egress-bridge SOCKET`: it serves descriptors 3 and 4
// (HTTP and SOCKS5 listeners) to the proxy socket, as the server or, with
// envBridgeRole, as the standby until the server dies.
func ServeBridge(sock string) error {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	files := []*os.File{os.NewFile(3, "egress-http"), os.NewFile(4, "egress-socks")}
	if os.Getenv(envBridgeRole) == "standby" {
		partner := os.NewFile(5, "egress-partner")
		io.Copy(io.Discard, partner) // returns when the server is gone
		partner.Close()
	}
	errc := make(chan error, 2)
	for i, f := range files {
		l, err := net.FileListener(f)
		if err != nil {
			return fmt.Errorf("egress bridge: descriptor %d: %w (it is started by __confine, not by hand)", 3+i, err)
		}
		go func() { errc <- Bridge(l, sock) }()
	}
	go presence(sock)
	go supervise(sock, files)
	return <-errc
}

// supervise keeps a standby running beside this server.
func supervise(sock string, files []*os.File) {
	time.Sleep(standbyDelay)
	exe, err := os.Executable()
	if err != nil {
		exe = "/proc/self/exe"
	}
	var starts []time.Time
	for {
		now := time.Now()
		for len(starts) > 0 && now.Sub(starts[0]) > time.Minute {
			starts = starts[1:]
		}
		if len(starts) >= maxRespawns {
			fmt.Fprintf(os.Stderr, "lite-sandbox: egress bridge: the standby died %d times in a minute; no more standbys\n", maxRespawns)
			return
		}
		starts = append(starts, now)
		mine, err := startStandby(exe, sock, files)
		if err != nil {
			fmt.Fprintf(os.Stderr, "lite-sandbox: egress bridge: standby: %v\n", err)
			time.Sleep(time.Second)
			continue
		}
		io.Copy(io.Discard, mine) // returns when the standby is gone
		mine.Close()
	}
}

// startStandby starts `exe __egress-bridge SOCK` as the standby, with
// the listeners and its end of a new socket pair, and returns ours.
func startStandby(exe, sock string, files []*os.File) (*os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "egress-pair"), os.NewFile(uintptr(fds[1]), "egress-pair")
	defer theirs.Close()
	cmd := &exec.Cmd{
		Path: exe, Args: []string{exe, BridgeCommand, sock},
		Env:        []string{"PATH=/usr/bin:/bin", envBridgeRole + "=standby"},
		ExtraFiles: []*os.File{files[0], files[1], theirs}, // 3, 4, 5
		Dir:        "/",
	}
	if err := cmd.Start(); err != nil {
		mine.Close()
		return nil, err
	}
	go cmd.Wait()
	return mine, nil
}

// presence holds a connection to the proxy (GET BridgePath) for as long
// as this server lives, reconnecting when the proxy closes it.
func presence(sock string) {
	for {
		if c, err := net.Dial("unix", sock); err == nil {
			if _, err := io.WriteString(c, "GET "+BridgePath+" HTTP/1.1\r\nHost: bridge\r\n\r\n"); err == nil {
				io.Copy(io.Discard, c)
			}
			c.Close()
		}
		time.Sleep(time.Second)
	}
}

// health is the bridge's view of whether the proxy answers, checked at
// most once per pingEvery by a ping (PingPath).
type health struct {
	sock string
	// answerWait is how long a connection may wait for the proxy's
	// first byte (or sit idle) before the bridge pings the proxy;
	// pingTimeout how long the ping may take.
	answerWait, pingTimeout, pingEvery time.Duration

	mu      sync.Mutex
	checked time.Time
	ok      bool
}

// newHealth returns the health of the proxy at sock with the default
// waits.
func newHealth(sock string) *health {
	return &health{sock: sock, answerWait: 5 * time.Second, pingTimeout: 2 * time.Second, pingEvery: time.Second}
}

func (h *health) alive() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.checked.IsZero() && time.Since(h.checked) < h.pingEvery {
		return h.ok
	}
	h.ok, h.checked = ping(h.sock, h.pingTimeout), time.Now()
	return h.ok
}

// ping asks the proxy for PingPath and reports whether it answered in
// time.
func ping(sock string, timeout time.Duration) bool {
	c, err := net.DialTimeout("unix", sock, timeout)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	if _, err := io.WriteString(c, "GET "+PingPath+" HTTP/1.1\r\nHost: bridge\r\nConnection: close\r\n\r\n"); err != nil {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(c, 512))
	return strings.HasPrefix(string(b), "HTTP/1.1 200")
}
