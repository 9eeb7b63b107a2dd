// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// forwarded are the signals [Run] passes on to the command: what an
// agent or a terminal sends to stop a command. SIGKILL cannot be caught;
// when the caller dies, its connection closes and the worker kills the
// command's process group.
var forwarded = []os.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT}

// Run runs req in the worker listening on socketPath and returns the
// command's exit status: its exit code, or 128+N after death by signal
// N. The command gets stdin, stdout and stderr themselves (nil means
// /dev/null), so its output never passes through the caller.
//
// While the command runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the
// calling process are forwarded to the command's process group instead of
// ending the caller. When ctx ends, Run closes the connection, the worker
// kills the command's process group, and Run returns ctx.Err().
//
// The status is meaningful when err is nil or a [*StartError] (then it
// is 126 or 127). Errors wrap [ErrNoWorker] when nothing listens (the
// command did not run) and [ErrWorkerDied] when the worker died while the
// command ran; a [*ProtocolError] means the request was refused.
func Run(ctx context.Context, socketPath string, req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	return runWith(ctx, func(ctx context.Context) (*net.UnixConn, error) { return dial(ctx, socketPath) }, req, stdin, stdout, stderr)
}

// RunRing is [Run] from the Landlock agent ring, which may not connect
// to the judge's socket by its path ([DialRing]).
func RunRing(ctx context.Context, req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	return runWith(ctx, func(context.Context) (*net.UnixConn, error) { return DialRing() }, req, stdin, stdout, stderr)
}

func runWith(ctx context.Context, dialer func(context.Context) (*net.UnixConn, error), req Request, stdin, stdout, stderr *os.File) (status int, err error) {
	// Catch the signals before sending, so that one arriving while the
	// command starts is forwarded rather than killing the caller.
	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, forwarded...)
	defer signal.Stop(sigc)
	c, err := startWith(ctx, dialer, req, stdin, stdout, stderr)
	if err != nil {
		return -1, err
	}
	defer c.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigc:
				// Best effort: if the worker is gone, Wait reports it.
				c.Signal(s.(unix.Signal))
			case <-done:
				return
			}
		}
	}()
	return c.Wait()
}

// Conn is a command sent to a worker (or a session's judge) by [Start].
type Conn struct {
	ctx  context.Context
	c    *net.UnixConn
	stop func() bool
	// Started is when the worker began to fork the command, Reaped
	// when it reaped it (both in its 'X' frame); zero until [Conn.Wait]
	// read them, and from a worker only.
	Started, Reaped time.Time
}

// Start sends req to the worker listening on socketPath, with stdin,
// stdout and stderr (nil means /dev/null) and req.Extra as the command's
// descriptors, and returns the connection to signal and wait on. It
// catches no signal itself: [Run] does, for a process that is the
// command's only caller; the session's judge relays those its shim
// sends instead.
func Start(ctx context.Context, socketPath string, req Request, stdin, stdout, stderr *os.File) (*Conn, error) {
	return startWith(ctx, func(ctx context.Context) (*net.UnixConn, error) { return dial(ctx, socketPath) }, req, stdin, stdout, stderr)
}

func startWith(ctx context.Context, dialer func(context.Context) (*net.UnixConn, error), req Request, stdin, stdout, stderr *os.File) (*Conn, error) {
	if len(req.Argv) == 0 || req.Argv[0] == "" {
		return nil, errors.New("sandbox worker: no program to run")
	}
	if len(req.Extra) > MaxExtra {
		return nil, fmt.Errorf("sandbox worker: %d extra descriptors, at most %d", len(req.Extra), MaxExtra)
	}
	frame, err := encodeRequest(req)
	if err != nil {
		return nil, err
	}
	fds, files, closeNull, err := requestFDs(req, stdin, stdout, stderr)
	if err != nil {
		return nil, err
	}
	defer closeNull()
	c, err := dialer(ctx)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	n, _, err := c.WriteMsgUnix(frame, unix.UnixRights(fds...), nil)
	runtime.KeepAlive(files)
	if err == nil && n < len(frame) {
		// A stream socket may take a large request in parts; the
		// descriptors went with the first.
		_, err = c.Write(frame[n:])
	}
	if err != nil {
		stop()
		c.Close()
		return nil, connError(ctx, "send request", err)
	}
	return &Conn{ctx: ctx, c: c, stop: stop}, nil
}

// requestFDs returns the descriptors sent with req: stdin, stdout and
// stderr (/dev/null for a nil one, closed by closeNull once sent), then
// req.Extra; files are what the caller keeps alive until then.
func requestFDs(req Request, stdin, stdout, stderr *os.File) (fds []int, files []*os.File, closeNull func(), err error) {
	files = []*os.File{stdin, stdout, stderr}
	var opened []*os.File
	closeNull = func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for i, f := range files {
		if f != nil {
			continue
		}
		if f, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
			closeNull()
			return nil, nil, nil, fmt.Errorf("sandbox worker: %w", err)
		}
		opened = append(opened, f)
		files[i] = f
	}
	files = append(files, req.Extra...)
	fds = make([]int, len(files))
	for i, f := range files {
		if f == nil {
			closeNull()
			return nil, nil, nil, errors.New("sandbox worker: nil extra descriptor")
		}
		// SyscallConn rather than Fd: Fd would switch the caller's
		// descriptor, which it may share with the agent, to blocking.
		rc, err := f.SyscallConn()
		if err != nil {
			closeNull()
			return nil, nil, nil, fmt.Errorf("sandbox worker: descriptor of %s: %w", f.Name(), err)
		}
		rc.Control(func(fd uintptr) { fds[i] = int(fd) })
	}
	return fds, files, closeNull, nil
}

// Signal passes sig to the command's process group (SIGINT, SIGTERM,
// SIGHUP or SIGQUIT; the worker ignores others).
func (c *Conn) Signal(sig unix.Signal) error {
	_, err := c.c.Write(append(appendHeader(nil, frameSignal, 1), byte(sig)))
	return err
}

// Close ends the connection: a command still running is killed.
func (c *Conn) Close() error {
	c.stop()
	return c.c.Close()
}

// Wait reads the answer to the request; see [Run] for the status and
// the errors.
func (c *Conn) Wait() (int, error) {
	typ, p, err := readFrame(c.ctx, c.c)
	if err != nil {
		return -1, err
	}
	return c.answer(typ, p)
}

// answer reads the frame of the worker's answer: the status and error
// [Run] returns.
func (c *Conn) answer(typ byte, p []byte) (status int, err error) {
	switch {
	case typ == frameExit && (len(p) == 4 || len(p) == 20):
		if len(p) == 20 {
			c.Started = time.Unix(0, int64(binary.BigEndian.Uint64(p[4:])))
			c.Reaped = time.Unix(0, int64(binary.BigEndian.Uint64(p[12:])))
		}
		return int(binary.BigEndian.Uint32(p)), nil
	case typ == frameFailed && len(p) >= 4:
		st := int(binary.BigEndian.Uint32(p))
		return st, &StartError{Status: st, Msg: string(p[4:])}
	case typ == frameError:
		return -1, &ProtocolError{"worker refused the request: " + string(p)}
	}
	return -1, &ProtocolError{fmt.Sprintf("unexpected frame %q of %d bytes", typ, len(p))}
}

// readFrame reads one frame from the other side.
func readFrame(ctx context.Context, c *net.UnixConn) (byte, []byte, error) {
	var hdr [headerLen]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return 0, nil, connError(ctx, "read status", err)
	}
	typ, size, err := parseHeader(hdr[:])
	if err != nil {
		return 0, nil, err
	}
	p := make([]byte, size)
	if _, err := io.ReadFull(c, p); err != nil {
		return 0, nil, connError(ctx, "read status", err)
	}
	return typ, p, nil
}

// connError turns a failed read or write on the connection into the error
// Run returns: the context's, or ErrWorkerDied.
func connError(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w (%s: %v)", ErrWorkerDied, op, err)
}

// dial connects to the worker's socket.
func dial(ctx context.Context, socketPath string) (*net.UnixConn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socketPath)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, unix.ECONNREFUSED) || errors.Is(err, unix.ENOENT) {
			return nil, fmt.Errorf("%w at %s (has the session ended?): %v", ErrNoWorker, socketPath, err)
		}
		return nil, fmt.Errorf("sandbox worker: connect %s: %w", socketPath, err)
	}
	return c.(*net.UnixConn), nil
}

// Ping checks that a worker serves socketPath: it returns nil once the
// worker answered, an error wrapping [ErrNoWorker] when nothing listens,
// or ctx's error when it ends first (a worker that is starting, or dead
// while its session still holds the socket, accepts nothing).
func Ping(ctx context.Context, socketPath string) error {
	c, err := dial(ctx, socketPath)
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := c.Write(appendHeader(nil, framePing, 0)); err != nil {
		return connError(ctx, "ping", err)
	}
	var hdr [headerLen]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return connError(ctx, "ping", err)
	}
	if hdr[0] != framePong {
		return &ProtocolError{fmt.Sprintf("unexpected answer %q to a ping", hdr[0])}
	}
	return nil
}
