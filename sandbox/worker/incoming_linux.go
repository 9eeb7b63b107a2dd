// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// Incoming is a run request as the server side of the protocol receives
// it: the worker's, and the session judge's (package shims).
type Incoming struct {
	Request
	// fds are the descriptors that came with it: stdin, stdout,
	// stderr, then the extra ones; files their *os.File once made by
	// File. Close closes them.
	fds   []int
	files []*os.File

	c    *net.UnixConn
	rest io.Reader // the stream after the request
}

// Receive reads the first frame of a connection. A ping is answered
// (and the error is io.EOF: nothing more to do); a malformed request
// is answered with an 'E' frame and returned as an error.
func Receive(c *net.UnixConn) (*Incoming, error) {
	buf := make([]byte, firstRead)
	oob := make([]byte, unix.CmsgSpace((3+MaxExtra)*4))
	n, oobn, flags, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, fmt.Errorf("sandbox worker: read request: %w", err)
	}
	fds, ferr := receivedFDs(oob[:oobn], flags)
	in := &Incoming{c: c, fds: fds, files: make([]*os.File, len(fds))}
	fail := func(err error) (*Incoming, error) {
		in.Close()
		return nil, err
	}
	// The rest of the stream: what the first read got beyond the
	// header, then the connection.
	in.rest = io.MultiReader(bytes.NewReader(buf[:n]), c)
	var hdr [headerLen]byte
	if _, err := io.ReadFull(in.rest, hdr[:]); err != nil {
		return fail(fmt.Errorf("sandbox worker: read request: %w", err))
	}
	typ, size, err := parseHeader(hdr[:])
	if err != nil {
		c.Write(errorFrame(err.Error()))
		return fail(err)
	}
	switch typ {
	case framePing:
		c.Write(appendHeader(nil, framePong, 0))
		return fail(io.EOF)
	case frameRun:
	default:
		err := &ProtocolError{fmt.Sprintf("unexpected first frame %q", typ)}
		c.Write(errorFrame(err.Msg))
		return fail(err)
	}
	if ferr != nil {
		c.Write(errorFrame(ferr.Error()))
		return fail(ferr)
	}
	payload := make([]byte, size)
	if _, err := io.ReadFull(in.rest, payload); err != nil {
		return fail(fmt.Errorf("sandbox worker: read request: %w", err))
	}
	if in.Request, err = decodeRequest(payload); err != nil {
		c.Write(errorFrame(err.Error()))
		return fail(err)
	}
	if len(fds) != 3+in.extraCount {
		err := &ProtocolError{fmt.Sprintf("run request with %d descriptors, want %d (stdin, stdout, stderr and %d extra)", len(fds), 3+in.extraCount, in.extraCount)}
		c.Write(errorFrame(err.Msg))
		return fail(err)
	}
	return in, nil
}

// NumFiles is the number of received descriptors: 3 plus the extra ones.
func (in *Incoming) NumFiles() int { return len(in.fds) }

// File returns received descriptor i (0 stdin, 1 stdout, 2 stderr,
// then the extra ones) as a file, valid until Close. Its flags are left
// as they are: the descriptor shares its open file with the caller's
// (the agent's pipes), so it must not be switched to blocking (no Fd).
func (in *Incoming) File(i int) *os.File {
	if in.files[i] == nil {
		in.files[i] = os.NewFile(uintptr(in.fds[i]), fmt.Sprintf("fd %d", i))
	}
	return in.files[i]
}

// Close closes the received descriptors (idempotent).
func (in *Incoming) Close() {
	for i, fd := range in.fds {
		if in.files[i] != nil {
			in.files[i].Close()
		} else {
			unix.Close(fd)
		}
	}
	in.fds, in.files = nil, nil
}

// Signals calls fn for each signal frame the client sends, until the
// client closes the connection or breaks the protocol; then it returns.
func (in *Incoming) Signals(fn func(unix.Signal)) {
	var hdr [headerLen]byte
	for {
		if _, err := io.ReadFull(in.rest, hdr[:]); err != nil {
			return
		}
		_, size, err := parseHeader(hdr[:])
		if err != nil {
			return
		}
		p := make([]byte, size)
		if _, err := io.ReadFull(in.rest, p); err != nil {
			return
		}
		if hdr[0] == frameSignal && len(p) == 1 {
			switch sig := unix.Signal(p[0]); sig {
			case unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT:
				fn(sig)
			}
		}
		// Other frames are ignored: a newer client may send more.
	}
}

// Exit answers with the command's status.
func (in *Incoming) Exit(status int) error { return in.write(statusFrame(status)) }

// Failed answers that the command could not start (status 126 or 127).
func (in *Incoming) Failed(status int, msg string) error {
	return in.write(failedFrame(status, msg))
}

func (in *Incoming) write(b []byte) error {
	if _, err := in.c.Write(b); err != nil {
		return fmt.Errorf("sandbox worker: answer: %w", err)
	}
	return nil
}
