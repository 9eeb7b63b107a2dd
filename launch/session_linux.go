// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
)

// Restart policy: a worker that dies after running for quickExit is
// restarted at once; maxQuick deaths in a row, each sooner than that,
// mean it cannot run here, and the session gives up rather than spin.
const (
	quickExit = 2 * time.Second
	maxQuick  = 5
)

// Open creates a session directory, starts the worker in the sandbox of
// o.Spec and waits until it answers. See the package documentation. On
// error nothing is left behind.
func Open(ctx context.Context, o Options) (_ *Session, err error) {
	if o.Backend.Path == "" {
		return nil, errors.New("session: no sandbox backend (call sandbox.Detect first)")
	}
	exe, err := sessionExe(o.Exe)
	if err != nil {
		return nil, err
	}
	meta, err := metaJSON(o.Meta)
	if err != nil {
		return nil, err
	}
	root, err := runtimeRoot(o.RuntimeRoot)
	if err != nil {
		return nil, err
	}
	s, err := newSession(root, o.StartTimeout)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(s.Dir, contract.DirMode); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	defer func() {
		if err != nil {
			s.cleanup()
		}
	}()
	if err := s.writeFiles(exe, o.PolicyTOML, meta); err != nil {
		return nil, err
	}
	if err := s.openFiles(o.Judge); err != nil {
		return nil, err
	}
	if err := s.prepareWorker(o, exe, root); err != nil {
		return nil, err
	}

	started := make(chan error, 1)
	go s.supervise(started)
	if err := <-started; err != nil {
		return nil, &StartError{Err: err, Log: s.logTail()}
	}
	if o.Background != nil {
		s.answered = make(chan struct{})
		go func() {
			defer close(s.answered)
			if err := s.waitReady(context.WithoutCancel(ctx)); err != nil {
				s.giveUp(err)
				o.Background(err)
			}
		}()
		return s, nil
	}
	if err := s.waitReady(ctx); err != nil {
		s.Close() // stops the supervisor too; the deferred cleanup repeats harmlessly
		return nil, err
	}
	return s, nil
}

// sessionExe returns the lite-sandbox binary the worker runs: exe, or
// this process's own executable, as an absolute real path.
func sessionExe(exe string) (string, error) {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("session: own executable: %w", err)
		}
	}
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("session: executable %q is not an absolute path", exe)
	}
	// The real path: bwrap creates the bind's destination, which fails
	// below a symlink such as /bin -> usr/bin (read-only inside).
	resolved, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", fmt.Errorf("session: executable: %w", err)
	}
	return resolved, nil
}

// runtimeRoot creates (or checks) the private directory that holds the
// sessions, and removes the directories of sessions whose owner died.
func runtimeRoot(root string) (string, error) {
	if root == "" {
		root = defaultRuntimeRoot()
	}
	if err := os.MkdirAll(root, contract.DirMode); err != nil {
		return "", fmt.Errorf("session: runtime directory: %w", err)
	}
	if err := contract.CheckPrivate(root, false); err != nil {
		return "", fmt.Errorf("session: runtime directory %s: %w", root, err)
	}
	cleanStale(root)
	return root, nil
}

// newSession names a new session in root; its directory is not made yet.
func newSession(root string, timeout time.Duration) (*Session, error) {
	id, err := newID()
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	dir := filepath.Join(root, id)
	s := &Session{
		Dir:     dir,
		Socket:  filepath.Join(dir, contract.SocketName),
		timeout: timeout,
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	if s.timeout <= 0 {
		s.timeout = 10 * time.Second
	}
	// sun_path holds 108 bytes with the terminating NUL.
	if len(s.Socket) > 107 {
		return nil, fmt.Errorf("session: socket path %s is longer than 107 bytes; choose a shorter runtime directory", s.Socket)
	}
	return s, nil
}

// writeFiles fills the new session directory: its mode, the pid file,
// the frozen policy, the metadata and the shim link.
func (s *Session) writeFiles(exe string, policyTOML, meta []byte) error {
	dir := s.Dir
	// Mkdir's mode is filtered by the umask, which can only remove bits;
	// Attach insists on exactly 0700.
	if err := os.Chmod(dir, contract.DirMode); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	// The pid file first: a directory without one is never cleaned up as
	// stale, so a concurrent Open leaves this one alone.
	if err := writeFile(filepath.Join(dir, contract.PidName), ownerRecord()); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, contract.PolicyName), policyTOML); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, contract.MetaName), meta); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(dir, filepath.Dir(contract.ShimPath)), contract.DirMode); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := os.Symlink(contract.FindShimBinary(exe), contract.Shim(dir)); err != nil {
		return fmt.Errorf("session: shim link: %w", err)
	}
	return nil
}

// openFiles opens the worker log, the listening socket and the judge.
// Each is released by cleanup.
func (s *Session) openFiles(newJudge func(dir, token string) (Judge, error)) (err error) {
	if s.log, err = os.OpenFile(filepath.Join(s.Dir, contract.WorkerLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if s.listener, err = listen(s.Socket); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if newJudge != nil {
		if s.token, err = newID(); err != nil {
			return fmt.Errorf("session: %w", err)
		}
		if s.judge, err = startJudge(s.Dir, s.token, newJudge); err != nil {
			return err
		}
	}
	return nil
}

// prepareWorker builds the worker's sandbox (its argv and environment)
// from o.Spec, starting the session's egress proxy if there is one.
func (s *Session) prepareWorker(o Options, exe, root string) error {
	spec := o.Spec
	// The worker is the smaller shim binary where it is installed: it
	// lives as long as the session (docs/performance.md).
	wexe := contract.FindShimBinary(exe)
	spec.Read = append(slices.Clone(spec.Read), exe)
	if wexe != exe {
		spec.Read = append(spec.Read, wexe)
	}
	// The runtime root is never mounted, except through a workspace that
	// contains it (/, a degraded workspace): then the mask hides every
	// session's socket, since another session's worker may run with
	// another workspace.
	spec.Deny = append(slices.Clone(spec.Deny), root)
	spec.Cwd = spec.Workspace
	var egressEnv []string
	if o.Egress != nil {
		sock, stop, err := o.Egress(s.Dir)
		if err != nil {
			return fmt.Errorf("session: %w", err)
		}
		s.egress = stop
		spec.Read = append(spec.Read, sock)
		egressEnv = append([]string{egress.EnvSocket + "=" + sock}, o.EgressEnv...)
	}
	args := o.WorkerArgs
	if args == nil {
		// The worker confines itself before serving (Landlock scopes,
		// seccomp; escape classes 19, 21, 24), through the same entry
		// point as a per-command sandbox; every command inherits it.
		args = []string{confine.Command, "--", wexe, WorkerCommand}
		s.serveGoCache(&spec, wexe) // serves __gocacheprog (a test's worker may not)
	}
	s.copyGitHome(&spec)
	prep, dropEvents, err := prepareWithGitEvents(o.Backend, spec, s.Dir, append([]string{wexe}, args...))
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	s.argv, s.prep, s.Notice = prep.Args, prep, prep.Notice
	s.release = func() { prep.Done(); dropEvents(); reportQuarantined(os.Stderr, prep) }
	s.env = o.WorkerEnv
	if s.env == nil {
		s.env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	s.env = append(slices.Clip(s.env), egressEnv...)
	if s.token != "" {
		s.env = append(s.env, worker.EnvToken+"="+s.token)
	}
	return nil
}

// listen creates the listening socket. It is made with raw system calls
// so that the session holds a plain descriptor: every worker inherits it
// as descriptor 3, and connections made while a worker restarts wait in
// its backlog instead of failing.
func listen(path string) (*os.File, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("bind %s: %w", path, err)
	}
	if err := unix.Listen(fd, 512); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// supervise runs the worker, and runs it again when it dies while the
// session is open. It reports the first start on started.
//
// It keeps its OS thread for its whole life: bwrap dies with its parent
// through PR_SET_PDEATHSIG, and for Linux the parent is the thread that
// forked it, so a Go runtime thread that exited would kill the sandbox.
func (s *Session) supervise(started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(s.done)
	quick := 0
	for first := true; ; first = false {
		t0 := time.Now()
		cmd, exited, err := s.startWorker()
		if first {
			started <- err
			if err != nil {
				return
			}
		}
		if err == nil {
			werr := cmd.Wait()
			s.mu.Lock()
			s.proc = nil
			closing := s.closing
			s.mu.Unlock()
			close(exited)
			if closing {
				return
			}
			s.logf("worker exited (%v) after %v", werr, time.Since(t0).Round(time.Millisecond))
		} else {
			if errors.Is(err, errClosing) {
				return
			}
			s.logf("worker restart failed: %v", err)
		}
		if time.Since(t0) < quickExit {
			quick++
		} else {
			quick = 0
		}
		if quick >= maxQuick {
			s.giveUp(fmt.Errorf("the sandbox worker died %d times in a row within %v of starting; see %s", quick, quickExit, filepath.Join(s.Dir, contract.WorkerLog)))
			return
		}
		// Back off a little when it keeps dying: 0, 50ms, 100ms, ...
		delay := time.Duration(quick) * 50 * time.Millisecond
		select {
		case <-s.quit:
			return
		case <-time.After(delay):
		}
		s.mu.Lock()
		s.restarts++
		s.mu.Unlock()
		s.logf("restarting the worker (restart %d); /tmp and background processes of the session are lost", s.Restarts())
	}
}

var errClosing = errors.New("session is closing")

// startWorker starts one bwrap running the worker.
func (s *Session) startWorker() (*exec.Cmd, chan struct{}, error) {
	cmd := &exec.Cmd{
		Path:       s.argv[0],
		Args:       s.argv,
		Env:        s.env,
		Dir:        "/",
		Stdout:     s.log,
		Stderr:     s.log,
		ExtraFiles: []*os.File{s.listener}, // descriptor 3
		SysProcAttr: &syscall.SysProcAttr{
			// Its own process group: a Ctrl-C or a kill of the owner's
			// group must not end the sandbox (and /tmp with it).
			Setpgid: true,
			// bwrap's --die-with-parent does the same; this also covers
			// the moment before bwrap gets to it.
			Pdeathsig: unix.SIGKILL,
		},
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Under the lock, so that Close either sees the process or stops
	// this start.
	if s.closing {
		return nil, nil, errClosing
	}
	stopNet, err := s.prep.Start(cmd)
	if err != nil {
		return nil, nil, err
	}
	s.proc, s.exited = cmd.Process, make(chan struct{})
	go stopAfter(s.exited, stopNet)
	return cmd, s.exited, nil
}

// waitReady waits until the first worker answers a ping.
func (s *Session) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	s.mu.Lock()
	exited := s.exited
	s.mu.Unlock()
	res := make(chan error, 1)
	go func() { res <- worker.Ping(ctx, s.Socket) }()
	select {
	case err := <-res:
		if err == nil {
			return nil
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v: %w", s.timeout, err)
		}
		return &StartError{Err: err, Log: s.logTail()}
	case <-exited:
		return &StartError{Err: errors.New("it exited during start"), Log: s.logTail()}
	}
}

// giveUp stops accepting commands: with the listener closed, waiting and
// new clients get an error instead of a connection nobody serves.
func (s *Session) giveUp(err error) {
	s.logf("giving up: %v", err)
	s.mu.Lock()
	s.failed = err
	s.mu.Unlock()
	os.Remove(s.Socket)
	s.listener.Close()
}

// Close ends the session: it kills the sandbox (its PID namespace takes
// every sandboxed process with it, background jobs included), waits for
// it, and removes the session directory. It is idempotent.
func (s *Session) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.close() })
	return s.closeErr
}

func (s *Session) close() error {
	// A worker still starting is let finish first (bounded): killing
	// bwrap while it sets up can orphan its namespace's init before that
	// has asked to die with its parent.
	if s.answered != nil {
		select {
		case <-s.answered:
		case <-time.After(s.timeout):
		}
	}
	s.mu.Lock()
	s.closing = true
	p := s.proc
	if p != nil {
		killSandbox(p)
	}
	s.mu.Unlock()
	close(s.quit)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		if p != nil {
			p.Kill()
		}
		<-s.done
	}
	return s.cleanup()
}

// cleanup releases the descriptors and removes the directory.
func (s *Session) cleanup() error {
	if s.listener != nil {
		s.listener.Close()
	}
	s.judge.close()
	s.approve.Close()
	if s.log != nil {
		s.log.Close()
	}
	// After the sandbox is gone: its placeholders may be removed.
	if s.release != nil {
		s.release()
	}
	s.stopServers() // the egress proxy, the Go build cache server
	if err := os.RemoveAll(s.Dir); err != nil {
		return fmt.Errorf("session: remove %s: %w", s.Dir, err)
	}
	return nil
}

// logf appends a line to the worker log.
func (s *Session) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "%s lite-sandbox session: %s\n", time.Now().Format(time.RFC3339), esc.Sprintf(format, args...))
}

// logTail returns the end of the worker log.
func (s *Session) logTail() string {
	f, err := os.Open(filepath.Join(s.Dir, contract.WorkerLog))
	if err != nil {
		return ""
	}
	defer f.Close()
	const max = 4 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		f.Seek(fi.Size()-max, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	return strings.TrimSpace(string(b))
}
