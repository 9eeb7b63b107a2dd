// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"golang.org/x/sys/unix"
)

// Forward is [Run] for the session's shim, a process that is the
// command's only caller and does nothing else while it waits: the same
// request and answer (with the same errors) on a blocking socket of its
// own rather than through Go's network poller, so that the forwarder
// makes no poller and starts fewer threads, each a cost on its start and
// at its exit on a busy machine (docs/performance.md, "The session
// path"). It has no context: the shim waits until the answer or its own
// death, which closes the socket and ends the command.
func Forward(socketPath string, req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, forwarded...)
	defer signal.Stop(sigc)
	if len(req.Argv) == 0 || req.Argv[0] == "" {
		return -1, errors.New("sandbox worker: no program to run")
	}
	frame, err := encodeRequest(req)
	if err != nil {
		return -1, err
	}
	fds, files, closeNull, err := requestFDs(req, stdin, stdout, stderr)
	if err != nil {
		return -1, err
	}
	s, err := dialBlocking(socketPath)
	if err != nil {
		closeNull()
		return -1, err
	}
	defer unix.Close(s)
	err = sendAll(s, frame, unix.UnixRights(fds...))
	runtime.KeepAlive(files)
	closeNull()
	if err != nil {
		return -1, fmt.Errorf("%w (send request: %v)", ErrWorkerDied, err)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case sig := <-sigc:
				// Best effort: if the judge is gone, the read below
				// reports it.
				sendAll(s, append(appendHeader(nil, frameSignal, 1), byte(sig.(unix.Signal))), nil)
			case <-done:
				return
			}
		}
	}()
	r := fdReader(s)
	var hdr [headerLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return -1, fmt.Errorf("%w (read status: %v)", ErrWorkerDied, err)
	}
	typ, size, err := parseHeader(hdr[:])
	if err != nil {
		return -1, err
	}
	p := make([]byte, size)
	if _, err := io.ReadFull(r, p); err != nil {
		return -1, fmt.Errorf("%w (read status: %v)", ErrWorkerDied, err)
	}
	return new(Conn).answer(typ, p)
}

// dialBlocking connects a blocking, close-on-exec Unix socket to
// socketPath.
func dialBlocking(socketPath string) (int, error) {
	s, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("sandbox worker: socket: %w", err)
	}
	for {
		err = unix.Connect(s, &unix.SockaddrUnix{Name: socketPath})
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(s)
		if errors.Is(err, unix.ECONNREFUSED) || errors.Is(err, unix.ENOENT) {
			return -1, fmt.Errorf("%w at %s (has the session ended?): %v", ErrNoWorker, socketPath, err)
		}
		return -1, fmt.Errorf("sandbox worker: connect %s: %w", socketPath, err)
	}
	return s, nil
}

// sendAll writes b to the socket s, with oob (descriptors) on the first
// part.
func sendAll(s int, b, oob []byte) error {
	for len(b) > 0 {
		n, err := unix.SendmsgN(s, b, oob, nil, unix.MSG_NOSIGNAL)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b, oob = b[n:], nil
	}
	return nil
}

// fdReader reads a blocking descriptor, retrying after a signal.
type fdReader int

func (r fdReader) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(r), p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
