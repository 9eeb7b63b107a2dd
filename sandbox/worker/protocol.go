// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
)

// maxFrame bounds a frame's payload. A request holds an argv and an
// environment, which the kernel limits to a few MiB for execve anyway.
const maxFrame = 16 << 20

// requestMagic opens every run request, so that a shim and a worker of
// different versions (the binary was upgraded during a session) fail
// with a clear error instead of misreading each other.
const requestMagic = "LSW3"

// EnvToken, in the worker's environment, is the token every request must
// carry ([Request.Token]); the worker takes it out of its environment.
const EnvToken = "LITE_SANDBOX_WORKER_TOKEN"

// MaxExtra bounds the extra descriptors of a request.
const MaxExtra = 4

// Frame types; see the package documentation.
const (
	frameRun    = 'R'
	frameSignal = 'S'
	framePing   = 'P'
	frameExit   = 'X'
	frameFailed = 'F'
	frameError  = 'E'
	framePong   = 'p'
)

// headerLen is the size of a frame header: type and length.
const headerLen = 5

// Request is one command for the worker.
type Request struct {
	// Argv is the command. A name without a slash is looked up in the
	// PATH of Env, not in the worker's.
	Argv []string
	// Env is the command's whole environment.
	Env []string
	// Dir is the command's working directory, a path inside the
	// sandbox; "" leaves the worker's (the workspace).
	Dir string
	// Token is the worker's token when it was started with one
	// ([EnvToken]): only the session's judge knows it, so that nothing
	// else that can reach the socket (the agent ring shows the session
	// directory) runs a command unjudged and unrecorded.
	Token string
	// Extra are more descriptors for the command, which gets them as 3,
	// 4, ... (at most [MaxExtra]); Claude's cwd file is one. On the
	// worker's side only their number is decoded (extraCount).
	Extra []*os.File

	extraCount int
}

// ErrWorkerDied is returned by [Run] when the connection ends before the
// worker reported the command's status: the worker (and with it the
// sandbox and the command) died. The command may have run in part, so
// callers must not run it again on their own.
var ErrWorkerDied = errors.New("sandbox worker died before the command finished")

// ErrNoWorker is returned (wrapped) by [Run] and [Ping] when nothing
// listens on the socket: the session ended or never started. The
// command did not run.
var ErrNoWorker = errors.New("no sandbox worker is listening")

// ErrUnsupported is returned where the worker is not implemented (any
// OS but Linux).
var ErrUnsupported = errors.New("the sandbox worker is only supported on Linux")

// StartError reports that the worker could not start the command:
// Status is what a shell would exit with (127: not found, 126: found
// but not executable, or a bad working directory).
type StartError struct {
	Status int
	Msg    string
}

func (e *StartError) Error() string { return "sandbox worker: " + e.Msg }

// ProtocolError reports a malformed or unexpected message, from either
// side.
type ProtocolError struct {
	Msg string
}

func (e *ProtocolError) Error() string { return "sandbox worker protocol: " + e.Msg }

// appendHeader appends a frame header for a payload of n bytes.
func appendHeader(dst []byte, typ byte, n int) []byte {
	return binary.BigEndian.AppendUint32(append(dst, typ), uint32(n))
}

// parseHeader splits a frame header.
func parseHeader(h []byte) (typ byte, n int, err error) {
	n64 := binary.BigEndian.Uint32(h[1:headerLen])
	if n64 > maxFrame {
		return 0, 0, &ProtocolError{fmt.Sprintf("frame of %d bytes exceeds the limit of %d", n64, maxFrame)}
	}
	return h[0], int(n64), nil
}

// appendString appends s as a uvarint length and its bytes.
func appendString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

// encodeRequest returns the whole 'R' frame for r. A hand-written
// encoding keeps reflection off the per-command path of both sides.
func encodeRequest(r Request) ([]byte, error) {
	n := len(requestMagic) + 5*binary.MaxVarintLen64 + len(r.Dir) + len(r.Token)
	for _, s := range r.Argv {
		n += binary.MaxVarintLen64 + len(s)
	}
	for _, s := range r.Env {
		n += binary.MaxVarintLen64 + len(s)
	}
	b := make([]byte, headerLen, headerLen+n)
	b = append(b, requestMagic...)
	b = binary.AppendUvarint(b, uint64(len(r.Extra)))
	b = appendString(b, r.Dir)
	b = binary.AppendUvarint(b, uint64(len(r.Argv)))
	for _, s := range r.Argv {
		b = appendString(b, s)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Env)))
	for _, s := range r.Env {
		b = appendString(b, s)
	}
	b = appendString(b, r.Token)
	if len(b)-headerLen > maxFrame {
		return nil, fmt.Errorf("sandbox worker: request of %d bytes exceeds the limit of %d", len(b)-headerLen, maxFrame)
	}
	appendHeader(b[:0], frameRun, len(b)-headerLen)
	return b, nil
}

// decoder reads the fields of a request payload.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = &ProtocolError{"truncated request"}
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = &ProtocolError{"truncated request"}
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) strings() []string {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	// Every string takes at least one byte, which bounds a lying count.
	if n > uint64(len(d.b)) {
		d.err = &ProtocolError{"truncated request"}
		return nil
	}
	out := make([]string, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		out = append(out, d.string())
	}
	return out
}

// decodeRequest parses the payload of an 'R' frame and checks what the
// worker relies on: a program to run, and no NUL bytes (execve would
// cut the strings short, so the command would differ from the one the
// validator judged).
func decodeRequest(p []byte) (Request, error) {
	if !strings.HasPrefix(string(p), requestMagic) {
		return Request{}, &ProtocolError{"bad request header (shim and worker of different versions?)"}
	}
	d := decoder{b: p[len(requestMagic):]}
	extra := d.uvarint()
	if extra > MaxExtra {
		return Request{}, &ProtocolError{fmt.Sprintf("%d extra descriptors, at most %d", extra, MaxExtra)}
	}
	r := Request{extraCount: int(extra), Dir: d.string()}
	r.Argv = d.strings()
	r.Env = d.strings()
	r.Token = d.string()
	if d.err != nil {
		return Request{}, d.err
	}
	if len(d.b) != 0 {
		return Request{}, &ProtocolError{"trailing bytes after request"}
	}
	if len(r.Argv) == 0 || r.Argv[0] == "" {
		return Request{}, &ProtocolError{"request without a program"}
	}
	for _, list := range [][]string{r.Argv, r.Env, {r.Dir}} {
		for _, s := range list {
			if strings.IndexByte(s, 0) >= 0 {
				return Request{}, &ProtocolError{"request string contains a NUL byte"}
			}
		}
	}
	return r, nil
}

// statusFrame returns an 'X' frame.
func statusFrame(status int) []byte {
	return binary.BigEndian.AppendUint32(appendHeader(nil, frameExit, 4), uint32(status))
}

// exitFrame returns the worker's 'X' frame: the status, when it began
// to fork the command and when it reaped it (Unix nanoseconds).
func exitFrame(status int, forking, reaped int64) []byte {
	b := binary.BigEndian.AppendUint32(appendHeader(nil, frameExit, 20), uint32(status))
	b = binary.BigEndian.AppendUint64(b, uint64(forking))
	return binary.BigEndian.AppendUint64(b, uint64(reaped))
}

// failedFrame returns an 'F' frame.
func failedFrame(status int, msg string) []byte {
	b := appendHeader(nil, frameFailed, 4+len(msg))
	return append(binary.BigEndian.AppendUint32(b, uint32(status)), msg...)
}

// errorFrame returns an 'E' frame.
func errorFrame(msg string) []byte {
	return append(appendHeader(nil, frameError, len(msg)), msg...)
}
