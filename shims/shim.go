// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/git"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/explain"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// Shim is one command as a value (#19): the frozen policy, the places,
// the validator at the command's cwd, its stdio and environment, and
// what was judged, decided and recorded; its methods return the outcome
// (an *exit.Error), never exit. In a session the judge makes one per
// request (judge_linux.go); outside one, New does for the process.
type Shim struct {
	Policy    *policy.Policy
	Workspace string
	Home      string
	Cwd       string
	Mode      policy.Mode

	validator *validator.Validator
	stderr    io.Writer
	session   *contract.Attached // set inside a session: commands go to its worker
	hostSpec  *sandbox.Spec      // see spec
	agent     string             // the launched agent, for its command wrapper
	egress    *egressState       // the per-command proxy's decisions, when network = "allow"
	egressID  string             // the command's proxy identifier (egressEnv)
	getenv    func(string) string

	// Inside a session: the lite-sandbox binary and the agent's temp
	// dir the launcher recorded (forms.go).
	sessionExe, sessionTmp string
	// The command's stdio and environment: the process's own on the
	// in-process path; the shim's, received with its request, in the
	// session's judge (judge_linux.go). stdin is replaced by a stdin
	// script's pipe; extra become the command's descriptors 3, 4, ...
	// (Claude's cwd file).
	stdin, stdout, stderrFile *os.File
	environ                   []string
	extra                     []*os.File
	// In the session's judge: the signals the shim relays, and the
	// judge the command came through (nil outside one).
	signals <-chan syscall.Signal
	judge   *Judge
	ctx     context.Context // nil: context.Background
	// approvals is the session's (in the judge): where an `ask` rule's
	// question goes; peer the shim that sent the command (its pid, in
	// the launcher's namespace); how the question ended is in the
	// verdict (ask.go).
	approvals *approval.Broker
	// recent is the session proxy's recent decisions (in the judge),
	// which explain a failed command's refused connections.
	recent *egress.Recent
	peer   int
	// workerToken is the session worker's, known to the judge only.
	workerToken string
	times       Times

	// v is the command's verdict, for the audit log (written once, by
	// conclude) and the denial hints: the command as judged, the
	// decision, how it ran.
	v verdict
	// refused is the judge's refusal of a request it cannot judge
	// (judge_linux.go), recorded like any other.
	refused error
	// trace is what the judging walk read of judged (-c commands), for
	// the explanations: the command is parsed once (#19).
	trace *validator.Traced
	// gitEvents is the file git inside writes its trace2 events to for
	// this command (gitevents.go), "" for none.
	gitEvents string
}

// New compiles the validator of a loaded configuration (see
// [config.Load]). stderr is where warnings go; nil means os.Stderr.
func New(c *config.Config, stderr io.Writer) (*Shim, error) {
	if stderr == nil {
		stderr = os.Stderr
	}
	v, err := c.Validator()
	if err != nil {
		return nil, err
	}
	return &Shim{Policy: c.Policy, Workspace: c.Workspace, Home: c.Home, Cwd: c.Cwd, Mode: c.Mode,
		validator: v, stderr: stderr, session: c.Session, agent: c.Agent, getenv: c.Getenv,
		sessionExe: c.Exe, sessionTmp: c.AgentTmp,
		stdin: os.Stdin, stdout: os.Stdout, stderrFile: os.Stderr, environ: os.Environ()}, nil
}

// CheckArgv judges an argv, as `lite-sandbox run` gets it.
func (s *Shim) CheckArgv(argv []string) validator.Result { return s.validator.CheckArgv(argv) }

// bash is the real shell the shim runs allowed commands with.
func bash() string {
	for _, p := range []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/bash"
}

// RunArgv is `lite-sandbox run -- CMD ARGS...`: judge the argv, then run
// it in the sandbox, starting in the working directory when it lies in
// the workspace, else in the workspace.
func (s *Shim) RunArgv(argv []string) error {
	if len(argv) == 0 || s.session != nil && s.judge == nil {
		// No command: nothing to record. In a session only its judge
		// decides, runs and records.
		return s.runArgv(argv)
	}
	s.v.start, s.v.command = time.Now(), quoteArgv(argv)
	return s.conclude(s.runArgv(argv))
}

func (s *Shim) runArgv(argv []string) error {
	if len(argv) == 0 {
		return &exit.Error{Code: exit.Usage, Err: errors.New("no command given (usage: lite-sandbox run -- CMD [ARGS...])")}
	}
	if s.session != nil && s.judge == nil {
		// In a session only its judge decides, runs and records.
		return &exit.Error{Code: forward.Run(s.session.Dir, []string{"bash", "-c", quoteArgv(argv)}, s.stderr, time.Now())}
	}
	s.v.result = s.CheckArgv(argv)
	if !s.v.result.Allowed() {
		if err := s.held(""); err != nil {
			return err
		}
	}
	if !hostpath.Within(s.Cwd, s.Workspace) {
		s.Cwd = s.Workspace
	}
	// A repository the command creates or changes is named afterwards,
	// as a session names them at its end (escape class 61). When the
	// command runs unsandboxed, Exec replaces this process and nothing
	// is compared.
	before := git.Nested(s.Workspace)
	err := s.Exec(argv)
	getenv := s.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	ReportNested(s.stderr, before, s.Workspace, "", "by this command", getenv)
	return err
}

// Exec runs argv inside the OS sandbox and returns an *exit.Error with
// its status (or, in auto mode without a backend, replaces the process
// with it, unsandboxed after a loud warning).
func (s *Shim) Exec(argv []string) error {
	if s.session != nil {
		return s.execInSession(argv)
	}
	b, derr := config.Probe()
	st, err := sandbox.Resolve(s.Mode, b, derr, s.Workspace, s.Home)
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: err}
	}
	env := s.childEnv(s.environ)
	switch st.State {
	case sandbox.StateOff:
		s.v.how = "off"
		return &replaceError{func() error { return s.execveNotSelf(argv, s.environ) }}
	case sandbox.StateUnavailable:
		esc.Fprintf(s.stderr, "lite-sandbox: WARNING: running UNSANDBOXED: %s (use --sandbox on to refuse instead)\n", st.Reason)
		s.v.how = "unsandboxed"
		// No namespace, so no bridge: the proxy variables would point at
		// whatever listens on the host's loopback.
		return &replaceError{func() error { return s.execveNotSelf(argv, egress.Unset(env)) }}
	case sandbox.StateDegraded:
		esc.Fprintf(s.stderr, "lite-sandbox: WARNING: sandbox degraded: %s\n", st.Reason)
	}
	if l := sandbox.LandlockLine(b); l != "" && s.session == nil {
		// What this backend cannot give, said before the command runs
		// (#28); a session says it once, at its start.
		esc.Fprintf(s.stderr, "lite-sandbox: %s\n", l)
	}
	// Signals are taken from here on, before anything is made on the host
	// (placeholders, the egress socket): a SIGTERM during setup ends the
	// command with 128+15 and what was made is removed, instead of the
	// default action leaving placeholders in the workspace (#29).
	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigc)
	spec, err := s.spec()
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("sandbox: %w", err)}
	}
	// The command starts through our own binary, which confines itself
	// further (Landlock scopes, seccomp) inside the sandbox, then runs it.
	hostPorts := s.hostPortsOn(spec)
	exe, err := sandboxExe(spec.Network != policy.NetworkAllow && !hostPorts)
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("sandbox: own executable: %w", err)}
	}
	spec.Read = append(slices.Clip(spec.Read), exe)
	// Both binaries are Go's build cache program inside; this process
	// serves the host's side (package gocacheprog).
	spec.GoCacheProg = exe
	defer serveGoCache(&spec)()
	env, stopNet, err := s.startSockets(&spec, env, hostPorts)
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("sandbox: %w", err)}
	}
	defer stopNet()
	if dir := sandbox.NewGitEvents(); dir != "" {
		defer os.RemoveAll(dir)
		spec.GitEvents, s.gitEvents = dir, filepath.Join(dir, "events")
		env = append(env, sandbox.EnvGitEvents+"="+s.gitEvents)
	}
	return s.runSandboxed(b, spec, env, confine.Argv(exe, argv), sigc)
}

// runSandboxed prepares the sandbox of spec, runs argv in it and reports
// what its guard quarantined; the command's status becomes the error.
func (s *Shim) runSandboxed(b sandbox.Backend, spec sandbox.Spec, env, argv []string, sigc chan os.Signal) error {
	prep, err := sandbox.Prepare(b, spec, argv)
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("sandbox: %w", err)}
	}
	if prep.Notice != "" {
		fmt.Fprintln(s.stderr, prep.Notice)
	}
	status, err := runForwarding(prep, env, s.Cwd, s.stdin, s.extra, sigc)
	prep.Done()
	for _, q := range prep.Quarantined() {
		fmt.Fprintln(s.stderr, "lite-sandbox: "+q.String())
	}
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("sandbox: %w", err)}
	}
	s.finish(status)
	return &exit.Error{Code: status}
}

// runForwarding runs the sandbox as a child (rather than exec'ing it, so
// that the shim learns the status and can explain a denial), forwarding
// the signals sigc receives (SIGINT, SIGTERM, SIGHUP, SIGQUIT) to it, and
// returns its status: the exit code, or 128+N after death by signal N.
// A signal that came before the start ends it there, as 128+N.
func runForwarding(prep *sandbox.Prepared, env []string, dir string, stdin *os.File, extra []*os.File, sigc chan os.Signal) (int, error) {
	select {
	case sig := <-sigc:
		return exit.Signaled(int(sig.(syscall.Signal))), nil
	default:
	}
	cmd := &exec.Cmd{Path: prep.Path, Args: prep.Args, Env: env, Dir: dir, Stdin: stdin, Stdout: os.Stdout, Stderr: os.Stderr, ExtraFiles: extra}
	// bwrap's --die-with-parent is PR_SET_PDEATHSIG, which fires when
	// the thread that forked it exits: keep this thread until the end.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	stopNet, err := prep.Start(cmd)
	if err != nil {
		return -1, err
	}
	defer stopNet()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-sigc:
				cmd.Process.Signal(sig)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case ok && ws.Signaled():
		return exit.Signaled(int(ws.Signal())), nil
	case ok && ws.Exited():
		return ws.ExitStatus(), nil
	case err != nil:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return -1, err
		}
	}
	return cmd.ProcessState.ExitCode(), nil
}

// finish notes how a command that ran in the sandbox ended, for its
// verdict, and, when it failed, explains the likely sandbox denials.
func (s *Shim) finish(status int) {
	s.v.how, s.v.status = "sandboxed", status
	s.explain(status)
	if failedOwn(status) && s.v.command != "" {
		for _, l := range s.egressLines() {
			fmt.Fprintln(s.stderr, esc.Text(l))
		}
	}
}

// spec is the command's sandbox, completed from the disk once (Exec and
// the explanations after a failure both need it).
func (s *Shim) spec() (sandbox.Spec, error) {
	if s.hostSpec == nil {
		spec, err := s.Policy.SandboxSpec(s.Workspace, s.Home, s.Cwd)
		if err != nil {
			return sandbox.Spec{}, err
		}
		sandbox.DetectHost(&spec)
		s.hostSpec = &spec
	}
	return *s.hostSpec, nil
}

// explainContext describes the sandbox for package explain.
func (s *Shim) explainContext() explain.Context {
	c := explain.Context{Workspace: s.Workspace, Cwd: s.Cwd, Home: s.Home,
		NetworkOff: s.Policy.Sandbox.Network == policy.NetworkOff}
	if spec, err := s.spec(); err == nil {
		for _, p := range spec.Protect {
			c.Protect = append(c.Protect, p.Path)
		}
		c.Writable = append(append(c.Writable, spec.Write...), spec.Caches...)
		c.Visible = append(append(append(append(append([]string{}, spec.System...), spec.Read...), spec.Tools...), c.Writable...), spec.SharedCaches...)
		for _, e := range spec.Etc {
			c.Visible = append(c.Visible, filepath.Join("/etc", e))
		}
	}
	for _, kv := range s.environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			c.Path = v
		}
	}
	c.Root = os.Geteuid() == 0
	c.Open = s.openNet()
	return c
}

// auditDir returns the directory of the user's audit log; off is set
// when LITE_SANDBOX_NO_AUDIT=1 turns the log off.
func (s *Shim) auditDir() (dir string, off bool, err error) {
	getenv := s.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv(contract.EnvNoAudit) == "1" {
		return "", true, nil
	}
	dir, err = audit.Dir(getenv)
	return dir, false, err
}

// quoteArgv renders an argv as a shell command line.
func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if v, err := syntax.Quote(a, syntax.LangBash); err == nil {
			q[i] = v
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

// execInSession hands argv to the session's worker with the command's
// stdio and returns its status (an *exit.Error). A worker that died
// while the command ran is an error, and the command is never run again
// (it may have run in part). In the judge, the signals the shim relays
// go on to the command.
func (s *Shim) execInSession(argv []string) error {
	parent := s.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s.times.Judged = time.Now()
	env := s.childEnv(s.environ)
	if f := sessionGitEvents(s.session.Dir); f != "" {
		defer os.Remove(f)
		s.gitEvents = f
		env = append(env, sandbox.EnvGitEvents+"="+f)
	}
	c, err := worker.Start(ctx, s.session.Socket, worker.Request{
		Argv:  argv,
		Env:   env,
		Dir:   s.Cwd,
		Token: s.workerToken,
		Extra: s.extra,
	}, s.stdin, s.stdout, s.stderrFile)
	if err != nil {
		return sessionError(-1, err)
	}
	defer c.Close()
	go func() {
		for {
			select {
			case sig := <-s.signals: // nil outside the judge: never ready
				c.Signal(sig)
			case <-ctx.Done():
				return
			}
		}
	}()
	status, err := c.Wait()
	s.times.Started, s.times.Reaped, s.times.Exited = c.Started, c.Reaped, time.Now()
	if err != nil {
		return sessionError(status, err)
	}
	s.finish(status)
	return &exit.Error{Code: status}
}

// sessionError is the error of a command the worker did not run to its
// end.
func sessionError(status int, err error) error {
	var se *worker.StartError
	switch {
	case errors.As(err, &se):
		return &exit.Error{Code: status, Err: fmt.Errorf("lite-sandbox: %w", err)}
	case errors.Is(err, worker.ErrWorkerDied):
		return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("lite-sandbox: the session's sandbox died while the command ran; it was not run again: %w", err)}
	}
	return &exit.Error{Code: exit.Sandbox, Err: fmt.Errorf("lite-sandbox: session: %w", err)}
}

// childEnv is the environment a sandboxed command gets: the policy's
// allow-list of the shim's own (secrets dropped), with SHELL pointing at
// the real bash: inside the sandbox the shim's path is not mounted, and a
// command that runs "$SHELL -c ..." must still find a shell (agents
// export SHELL=<shim> into commands).
func (s *Shim) childEnv(env []string) []string {
	out := s.Policy.Sandbox.FilterEnv(env)
	out = slices.DeleteFunc(out, func(kv string) bool { return strings.HasPrefix(kv, "SHELL=") })
	out = s.egressEnv(out)
	return config.WithTmpdir(append(out, "SHELL="+bash()), s.Mode)
}
