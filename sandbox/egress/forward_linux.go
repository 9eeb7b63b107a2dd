// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package egress

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// startForward listens on 127.0.0.1:PORT inside the sandbox for each
// granted host port and hands the listeners to a forwarder process
// `exe __confine -- exe __egress-forward SOCKET` (descriptors 3 and up).
// The sandbox's namespace has no route to the host: each connection
// goes to the proxy socket as CONNECT 127.0.0.1:PORT, which the agent's
// proxy allows for exactly the granted ports (docs/ring.md "The
// network").
func startForward(exe, sock string, ports []int) error {
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, port := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return fmt.Errorf("egress forward: %w", err)
		}
		f, err := l.(*net.TCPListener).File()
		l.Close()
		if err != nil {
			return fmt.Errorf("egress forward: %w", err)
		}
		files = append(files, f)
	}
	cmd := &exec.Cmd{
		Path:       exe,
		Args:       []string{exe, "__confine", "--", exe, ForwardCommand, sock, strconv.Itoa(len(files))},
		Env:        []string{"PATH=/usr/bin:/bin"},
		ExtraFiles: files,
		Dir:        "/",
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("egress forward: %w", err)
	}
	go cmd.Wait() // never reached: this process execs the program next
	return nil
}

// ServeForward is `__egress-forward SOCKET N`: it serves the N
// listeners from descriptor 3 on, each carrying its connections to the
// host's loopback port it listens on, through the proxy socket.
func ServeForward(sock, count string) error {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 || n > 1024 {
		return errors.New("egress forward: no listener (it is started by __confine, not by hand)")
	}
	var ls []net.Listener
	for fd := 3; fd < 3+n; fd++ {
		l, err := net.FileListener(os.NewFile(uintptr(fd), "egress-forward"))
		if err != nil {
			return fmt.Errorf("egress forward: descriptor %d: %w (it is started by __confine, not by hand)", fd, err)
		}
		ls = append(ls, l)
	}
	errc := make(chan error, len(ls))
	for _, l := range ls {
		port := l.Addr().(*net.TCPAddr).Port
		go func() { errc <- forward(l, sock, port) }()
	}
	return <-errc
}

// forward accepts on l and tunnels each connection to 127.0.0.1:port
// on the host.
func forward(l net.Listener, sock string, port int) error {
	return acceptLoop(l, func(c net.Conn) {
		go func() {
			up, err := tunnel(sock, "127.0.0.1:"+strconv.Itoa(port))
			if err != nil {
				c.Close()
				return
			}
			pipe(c, up)
		}()
	})
}

// tunnel opens a CONNECT tunnel to target through the proxy socket.
func tunnel(sock, target string) (net.Conn, error) {
	up, err := net.DialTimeout("unix", sock, 10*time.Second)
	if err != nil {
		return nil, err
	}
	up.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprintf(up, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target); err != nil {
		up.Close()
		return nil, err
	}
	br := bufio.NewReader(up)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		up.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		up.Close()
		return nil, fmt.Errorf("egress forward: %s: %s", target, resp.Status)
	}
	up.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		return &peekedConn{Conn: up, r: br}, nil
	}
	return up, nil
}
