// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package worker

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/pathlook"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/inherit"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// ServeFD is the worker's entry point: it serves the listening Unix
// socket it inherited as file descriptor fd (3 when started by package
// launch) until the process is killed.
//
// Before serving it makes the process safe to fork commands from: every
// inherited descriptor from 3 up becomes close-on-exec (the listener, and
// whatever the session owner leaked through bwrap, must never reach a
// sandboxed command), the process becomes non-dumpable (a sandboxed
// command running as the same user can then neither ptrace it nor take
// its descriptors with pidfd_getfd, so it cannot read other commands'
// requests or grab their stdio), and SIGINT and SIGHUP get a handler:
// an ignored disposition inherited from the session owner (a background
// job of a non-interactive shell ignores SIGINT) would otherwise pass to
// every command, and forwarded signals would not stop them.
func ServeFD(fd int) error {
	if err := inherit.Seal(); err != nil {
		return fmt.Errorf("sandbox worker: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox worker: prctl(PR_SET_DUMPABLE): %w", err)
	}
	// A caught signal is reset to the default on execve, an ignored one
	// is not. The worker itself survives them: only the session ends it.
	signal.Notify(make(chan os.Signal, 1), unix.SIGINT, unix.SIGHUP, unix.SIGTERM, unix.SIGQUIT)

	listening, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ACCEPTCONN)
	if err != nil || listening != 1 {
		return fmt.Errorf("sandbox worker: descriptor %d is not a listening socket (the worker is started by `lite-sandbox launch`, not by hand)", fd)
	}
	f := os.NewFile(uintptr(fd), "worker.sock")
	l, err := net.FileListener(f) // a close-on-exec duplicate
	f.Close()
	if err != nil {
		return fmt.Errorf("sandbox worker: listener: %w", err)
	}
	ul, ok := l.(*net.UnixListener)
	if !ok {
		l.Close()
		return fmt.Errorf("sandbox worker: descriptor %d is not a Unix socket", fd)
	}
	token := os.Getenv(EnvToken)
	os.Unsetenv(EnvToken)
	landlockTmp = os.Getenv(confine.EnvTmpdir)
	return serve(ul, token)
}

// landlockTmp is the Landlock backend's temp directory, when the worker
// runs under it (set once, before serving).
var landlockTmp string

// serve accepts connections on l and runs one command per connection,
// each independently, until l is closed (then it returns nil) or fails
// (ServeFD). Connections from Go's net package are close-on-exec, and so
// are the descriptors received with them (MSG_CMSG_CLOEXEC), so a
// command only gets its own stdin, stdout and stderr. token, when set,
// is what every request must carry.
func serve(l *net.UnixListener, token string) error {
	var delay time.Duration
	idle := newIdleTrim(idleTrimAfter)
	defer idle.stop()
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			// Out of descriptors or memory: wait for running commands
			// to finish rather than give up the session.
			if errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE) || errors.Is(err, unix.ENOBUFS) || errors.Is(err, unix.ENOMEM) || errors.Is(err, unix.ECONNABORTED) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return fmt.Errorf("sandbox worker: accept: %w", err)
		}
		delay = 0
		idle.busy()
		go func() {
			defer idle.done()
			serveConn(c, token)
		}()
	}
}

// idleTrimAfter is how long the worker waits, with no command running,
// before it returns its free heap to the kernel: it lives as long as the
// session and is idle most of that time (docs/performance.md).
const idleTrimAfter = 2 * time.Second

// idleTrim calls debug.FreeOSMemory once the worker has run no command
// for a while, never while one runs (it would add to its latency).
type idleTrim struct {
	mu      sync.Mutex
	running int
	timer   *time.Timer
	after   time.Duration
}

func newIdleTrim(after time.Duration) *idleTrim {
	t := &idleTrim{after: after}
	t.timer = time.AfterFunc(after, t.trim)
	return t
}

func (t *idleTrim) busy() {
	t.mu.Lock()
	t.running++
	t.timer.Stop()
	t.mu.Unlock()
}

func (t *idleTrim) done() {
	t.mu.Lock()
	t.running--
	if t.running == 0 {
		t.timer.Reset(t.after)
	}
	t.mu.Unlock()
}

func (t *idleTrim) trim() {
	t.mu.Lock()
	idle := t.running == 0
	t.mu.Unlock()
	if idle {
		debug.FreeOSMemory()
	}
}

func (t *idleTrim) stop() { t.timer.Stop() }

// firstRead is the size of the first read of a connection, which gets
// the descriptors and, usually, the whole request.
const firstRead = 8 << 10

// serveConn runs one connection: a ping or one command.
func serveConn(c *net.UnixConn, token string) {
	defer c.Close()
	in, err := Receive(c)
	if err != nil {
		return
	}
	defer in.Close()
	if subtle.ConstantTimeCompare([]byte(in.Token), []byte(token)) != 1 {
		// Only the session's judge knows the token (docs/security-model.md §7).
		in.write(errorFrame("request without the session judge's token: commands go through the shim"))
		return
	}
	forking := time.Now()
	pid, status, err := start(in.Request, in.fds)
	// The command has its own copies; ours would keep the caller's
	// pipes open after the command exits.
	in.Close()
	if err != nil {
		in.Failed(status, err.Error())
		return
	}
	// The moments go with the status, in one frame: a frame of their
	// own when the command starts would wake the judge while it runs.
	status = supervise(pid, in.rest)
	in.write(exitFrame(status, forking.UnixNano(), time.Now().UnixNano()))
}

// receivedFDs returns the descriptors of an SCM_RIGHTS message. On error
// it still returns those it got, for the caller to close.
func receivedFDs(oob []byte, flags int) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, &ProtocolError{"control message: " + err.Error()}
	}
	var fds []int
	for i := range msgs {
		got, err := unix.ParseUnixRights(&msgs[i])
		if err != nil {
			return fds, &ProtocolError{"control message: " + err.Error()}
		}
		fds = append(fds, got...)
	}
	if flags&unix.MSG_CTRUNC != 0 {
		return fds, &ProtocolError{"too many descriptors"}
	}
	return fds, nil
}

// start forks and execs the command in its own process group, with fds
// as its stdin, stdout, stderr and the request's extra descriptors 3, ... On failure it returns the status a
// shell would exit with.
func start(req Request, fds []int) (pid, status int, err error) {
	if req.Dir != "" {
		if fi, err := os.Stat(req.Dir); err != nil {
			return 0, exit.NotExecutable, fmt.Errorf("working directory: %w", err)
		} else if !fi.IsDir() {
			return 0, exit.NotExecutable, fmt.Errorf("working directory %s is not a directory", req.Dir)
		}
	}
	path, status, err := lookPath(req)
	if err != nil {
		return 0, status, err
	}
	files := make([]uintptr, len(fds))
	for i, fd := range fds {
		files[i] = uintptr(fd)
	}
	env := req.Env
	if landlockTmp != "" {
		// No private /tmp under the Landlock backend: the session's temp
		// directory is the one writable (#28).
		env = append(slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
			return strings.HasPrefix(kv, "TMPDIR=")
		}), "TMPDIR="+landlockTmp)
	}
	pid, err = syscall.ForkExec(path, req.Argv, &syscall.ProcAttr{
		Dir:   req.Dir,
		Env:   env,
		Files: files,
		// Its own process group, so that a forwarded signal and the kill
		// on disconnect reach the command's pipeline and jobs, and
		// nothing else in the sandbox.
		Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		status = exit.NotExecutable
		if errors.Is(err, unix.ENOENT) {
			status = exit.NotFound
		}
		return 0, status, fmt.Errorf("%s: %w", req.Argv[0], err)
	}
	return pid, 0, nil
}

// lookPath finds the program the way a shell would: a name with a slash
// is used as is (relative to Dir), any other is looked up in the PATH of
// the request's environment, not the worker's.
func lookPath(req Request) (string, int, error) {
	p, err := pathlook.Find(req.Argv[0], req.Env, req.Dir)
	switch {
	case errors.Is(err, pathlook.ErrNotExecutable):
		return "", exit.NotExecutable, fmt.Errorf("%s: permission denied", req.Argv[0])
	case err != nil:
		return "", exit.NotFound, errors.New(pathlook.NotFound(req.Argv))
	}
	return p, 0, nil
}

// supervise forwards the client's signals to the command's process group
// until the command's main process exits, kills the group if the client
// goes away first, and returns the exit status: the code, or 128+N after
// death by signal N.
func supervise(pid int, r io.Reader) int {
	var mu sync.Mutex
	exited := false
	// send sends sig to the group while the main process is unreaped:
	// until then its pid, and so the group id, cannot be reused.
	send := func(sig unix.Signal, leaderToo bool) {
		mu.Lock()
		defer mu.Unlock()
		if exited {
			return
		}
		unix.Kill(-pid, sig)
		if leaderToo {
			// In case the main process left its group.
			unix.Kill(pid, sig)
		}
	}
	go func() {
		var hdr [headerLen]byte
		for {
			if _, err := io.ReadFull(r, hdr[:]); err != nil {
				// The client is gone (killed, or its context ended):
				// nobody waits for this command any more.
				send(unix.SIGKILL, true)
				return
			}
			typ, size, err := parseHeader(hdr[:])
			if err != nil {
				send(unix.SIGKILL, true)
				return
			}
			p := make([]byte, size)
			if _, err := io.ReadFull(r, p); err != nil {
				send(unix.SIGKILL, true)
				return
			}
			if typ == frameSignal && len(p) == 1 {
				switch sig := unix.Signal(p[0]); sig {
				case unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT:
					send(sig, false)
				}
			}
			// Other frames are ignored: a newer client may send more.
		}
	}()

	// Wait without reaping first, so that signal never targets a pid
	// the kernel may have handed to another process.
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	mu.Lock()
	exited = true
	mu.Unlock()
	var ws unix.WaitStatus
	for {
		_, err := unix.Wait4(pid, &ws, 0, nil)
		if err != unix.EINTR {
			break
		}
	}
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		return exit.Signaled(int(ws.Signal()))
	}
	return exit.Signaled(0) // neither exited nor signalled: unknown
}
