// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
)

// WorkerCommand is the hidden subcommand that runs the worker
// ([contract.WorkerCommand]).
const WorkerCommand = contract.WorkerCommand

// StartError reports that the worker did not come up. Log holds the end
// of its log, which usually says why (bwrap's or the worker's message).
type StartError struct {
	Err error
	Log string
}

func (e *StartError) Error() string {
	msg := "sandbox worker did not start: " + e.Err.Error()
	if e.Log != "" {
		msg += "\nworker log (end):\n" + e.Log
	}
	return msg
}

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// Options describe a session for [Open].
type Options struct {
	// Spec is the frozen sandbox of the session. Exe is added to its Read
	// paths so that the worker binary is visible, read-only, inside.
	Spec sandbox.Spec
	// Backend is the detected sandbox backend (sandbox.Detect).
	Backend sandbox.Backend
	// Exe is the absolute path of the lite-sandbox binary; default
	// os.Executable().
	Exe string
	// PolicyTOML is the frozen policy, written as policy.toml.
	PolicyTOML []byte
	// Meta is written as session.json (JSON) for the shim: workspace,
	// home, mode. nil writes {}.
	Meta any
	// RuntimeRoot holds the session directories; default
	// $XDG_RUNTIME_DIR/lite-sandbox, else <os.TempDir()>/lite-sandbox-<uid>.
	RuntimeRoot string
	// WorkerArgs follow Exe on the worker's command line; default
	// [WorkerCommand]. Tests run their own binary as the worker.
	WorkerArgs []string
	// WorkerEnv is the worker's environment (commands get theirs with
	// each request); default PATH only. The owner's environment does not
	// leak into the sandbox this way.
	WorkerEnv []string
	// StartTimeout bounds the wait for the worker to answer; default 10s.
	StartTimeout time.Duration
	// Background, when set, makes Open return once the worker is started,
	// without waiting for its answer: the launcher starts the agent (and
	// its ring) meanwhile, which the worker's own start would otherwise
	// delay (docs/performance.md, "launch"). A command that arrives first
	// waits in the listening socket's queue. A worker that then fails to
	// answer makes the session give up (its commands fail closed) and
	// calls Background with the error.
	Background func(err error)
	// Egress, when set (network = "allow"), starts the session's proxy
	// on a socket in the session directory; the socket is bound into the
	// worker's sandbox and the worker's __confine bridges to it. stop
	// runs when the session is gone.
	Egress func(dir string) (sock string, stop func(), err error)
	// EgressEnv is added to the worker's environment with Egress's
	// socket: under network = "open" with sandbox.host_ports, Egress
	// serves those ports alone and EgressEnv has the worker's __confine
	// forward them (docs/egress.md "Grants under open").
	EgressEnv []string
	// Judge, when set, makes the session listen on judge.sock and hand
	// every connection to the judge it returns for the session's
	// directory (written by then): the session's shims send their
	// commands there (shims.NewJudge). The worker then takes only
	// requests with workerToken, which only the judge is given, so that
	// nothing else that reaches worker.sock (the agent ring shows the
	// session directory) runs a command unjudged and unrecorded. Without
	// it [worker.Run] reaches the worker with no token (tests of this
	// package).
	Judge func(dir, workerToken string) (Judge, error)
}

// Judge serves one command a shim sent on c (shims.Judge).
type Judge interface {
	ServeConn(c *net.UnixConn)
}

// Session is one running session; see the package documentation.
type Session struct {
	// Dir is the session's private runtime directory.
	Dir string
	// Socket is the worker's socket, Dir/worker.sock.
	Socket string

	// Notice is a warning line when the session's commands share the
	// host's network (sandbox.Prepared.Notice), "" otherwise.
	Notice string

	argv    []string          // the bwrap command line that runs the worker
	prep    *sandbox.Prepared // starts it (network = "open": with its user-space stack)
	release func()            // after the sandbox is gone (placeholders); may be nil
	egress  func()            // stops the egress proxy; may be nil
	gocache func()            // stops the Go build cache server; may be nil
	env     []string
	timeout time.Duration

	listener *os.File // the listening socket; every worker inherits it
	log      *os.File
	judge    *judgeServer // nil without Options.Judge
	// approve is the session's approval socket (openSession), closed
	// with the session.
	approve *approval.Server
	token   string // the worker's token, "" without Options.Judge
	// gitSpec holds, in its GitHome, the session's copy of the user's
	// git configuration (prepareWorker), which the agent ring binds too.
	gitSpec sandbox.Spec

	mu       sync.Mutex
	proc     *os.Process   // the current bwrap, nil between workers
	exited   chan struct{} // closed when the current bwrap exits
	closing  bool
	failed   error         // set when the supervisor gave up
	answered chan struct{} // with Options.Background: closed once the worker answered or failed to
	quit     chan struct{} // closed by Close
	done     chan struct{} // closed when the supervisor returns
	restarts int

	closeOnce sync.Once
	closeErr  error
}

// Restarts returns how often the worker was restarted after it died.
func (s *Session) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// defaultRuntimeRoot is where sessions live unless [Options.RuntimeRoot]
// says otherwise: $XDG_RUNTIME_DIR/lite-sandbox (a per-user tmpfs on
// systemd machines), else a per-user directory in os.TempDir().
func defaultRuntimeRoot() string { return RuntimeRoot() }

// RuntimeRoot is where sessions live (see defaultRuntimeRoot), and so
// their approval sockets (`lite-sandbox approve`).
func RuntimeRoot() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "lite-sandbox")
	}
	return filepath.Join(os.TempDir(), "lite-sandbox-"+strconv.Itoa(os.Getuid()))
}

// newID returns a random session directory name.
func newID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "s-" + hex.EncodeToString(b[:]), nil
}

// metaJSON renders Options.Meta.
func metaJSON(meta any) ([]byte, error) {
	if meta == nil {
		return []byte("{}\n"), nil
	}
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("session metadata: %w", err)
	}
	return append(b, '\n'), nil
}

// stopAfter calls stop once done is closed: the worker's user-space
// network stack (network = "open") ends with the worker.
func stopAfter(done <-chan struct{}, stop func()) {
	<-done
	stop()
}

// writeFile writes a private file of the session.
func writeFile(name string, data []byte) error {
	if err := os.WriteFile(name, data, 0o600); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	return nil
}
