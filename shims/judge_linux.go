// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/internal/procstat"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// Judge is the long-lived side of a session's per-command path, in the
// launcher: the shim (a small forwarder, package forward) sends it its
// argv, working directory, environment and stdio, and the judge does
// what the shim did in process before (docs/performance.md, "The
// session path"): the forms and shells, Claude's wrapper and cwd file,
// our own hook command, the validator, the worker request, the
// explanation lines and the audit record. The frozen policy is compiled
// once; each command is judged at its own working directory.
//
// It fails closed: a request it cannot judge is refused, and a shim that
// cannot reach it runs nothing. Since the record is written here, from
// what was judged and run, a process in the agent ring cannot add or
// change one (docs/security-model.md, the audit record).
type Judge struct {
	cfg   *config.Config
	v     *validator.Validator
	token string // the worker's (launch.Options.Judge)
	// Approvals, when set, takes the questions of `ask` rules
	// (docs/validator.md §8); without it they are refused.
	Approvals *approval.Broker
	// Egress, when set, is the session proxy's recent decisions, in
	// this process: a failed command is explained from them.
	Egress *egress.Recent
	// Trace, when set, gets every command's moments (the bench).
	Trace func(Times)
	// Spec, when set, is the launch's sandbox spec (#29), for the path
	// judge of the agents' file hooks (agenthook.go); without it the
	// judge builds one from its frozen policy, once, on first use.
	Spec *sandbox.Spec
	// View, when set, is what the session's agent ring shows, set by
	// the launcher once the ring is prepared.
	View  *RingView
	specs specOnce
}

// fileSpec is the sandbox spec the file hooks judge paths with.
func (j *Judge) fileSpec() (sandbox.Spec, error) {
	if j.Spec != nil {
		return *j.Spec, nil
	}
	return j.specs.get(j.cfg)
}

// peerFS is the file system of the process pid, the hook's shim, as it
// sees it (its root, in its mount namespace: /proc/PID/root): in the
// agent ring the path judge then resolves links in the ring's own home
// and /tmp, not in the launcher's. The shim waits for the answer, so
// the pid is its own while the judge reads. Unknown or unreadable, the
// file tools are refused (fail closed).
func peerFS(pid int) (sandbox.FS, error) {
	if pid <= 0 {
		return nil, errors.New("the process that ran the hook is unknown")
	}
	root := "/proc/" + strconv.Itoa(pid) + "/root"
	if _, err := os.Stat(root + "/"); err != nil {
		return nil, fmt.Errorf("the agent's file system: %w", err)
	}
	return rootFS(root), nil
}

// rootFS is a directory seen as "/": sandbox's path walk resolves every
// link itself, component by component (an absolute target starts again
// at "/"), so only its final component is ever looked up unresolved.
type rootFS string

func (r rootFS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(string(r) + name) }
func (r rootFS) Stat(name string) (fs.FileInfo, error)  { return os.Stat(string(r) + name) }
func (r rootFS) Readlink(name string) (string, error)   { return os.Readlink(string(r) + name) }

// NewJudge is the judge of the session in dir, whose worker takes
// requests with workerToken, given in memory what its launcher made
// (#29): the frozen policy (policyTOML, the bytes the launcher writes as
// policy.toml, so that the judge decides on what the rings read, without
// the upstream proxy's password) and the metadata (session.json's).
// The policy is parsed from memory and compiled once; nothing is read
// back from the session directory.
func NewJudge(dir, workerToken string, policyTOML []byte, meta contract.Meta) (*Judge, error) {
	c, err := config.Frozen(dir, policyTOML, meta)
	if err != nil {
		return nil, fmt.Errorf("session judge: %w", err)
	}
	v, err := c.Validator()
	if err != nil {
		return nil, fmt.Errorf("session judge: %w", err)
	}
	return &Judge{cfg: c, v: v, token: workerToken}, nil
}

// ServeConn judges and runs the one command a shim sent on c, and
// answers with its status (our own hook commands, answered here, with
// the hook's). It closes c. Every request that arrives with
// its stdio gets one audit record, a refused one included (#29).
func (j *Judge) ServeConn(c *net.UnixConn) {
	defer c.Close()
	received := time.Now()
	in, err := worker.Receive(c)
	if err != nil {
		return
	}
	defer in.Close()
	stderr := in.File(2) // Receive took stdin, stdout and stderr at least
	defer func() {
		if e := recover(); e != nil {
			esc.Fprintf(stderr, "lite-sandbox: the session's judge failed (%v); the command was refused\n", e)
			in.Exit(exit.Sandbox)
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan syscall.Signal, 4)
	go func() {
		// The shim's connection ends when it got its answer, or when it
		// was killed: then the command is killed too (Start's context).
		in.Signals(func(sig syscall.Signal) {
			select {
			case sigs <- sig:
			default:
			}
		})
		cancel()
	}()
	s := j.command(ctx, in, sigs)
	_, s.peer, _ = approval.PeerOfConn(c)
	s.times.Received = received
	err = s.RunShellAs(judgedArgv(in.Argv))
	if ctx.Err() != nil {
		// The shim is gone (killed): nobody reads an answer, and its
		// stderr may still be the agent's.
		return
	}
	status := ExitStatus(err, stderr)
	if j.Trace != nil && !s.times.Started.IsZero() {
		s.times.Answered = time.Now()
		j.Trace(s.times)
	}
	in.Exit(status)
}

// command is the per-command value of one request: the judge's frozen
// places, the request's working directory, stdio and environment. A
// request the judge cannot judge (a relative working directory, a
// validator that cannot be made there) is refused by RunShellAs, and so
// recorded, with the reason set here.
func (j *Judge) command(ctx context.Context, in *worker.Incoming, sigs <-chan syscall.Signal) *Shim {
	cwd := in.Dir
	if real, err := filepath.EvalSymlinks(cwd); err == nil && filepath.IsAbs(cwd) {
		cwd = real
	}
	env, main, sent := shimTimes(in.Env)
	c := j.cfg
	s := &Shim{Policy: c.Policy, Workspace: c.Workspace, Home: c.Home, Cwd: cwd, Mode: c.Mode,
		stderr: in.File(2), session: c.Session, agent: c.Agent,
		// The launcher's environment, not the request's: a process in
		// the ring must not turn the audit log off or move it.
		getenv:     os.Getenv,
		sessionExe: c.Exe, sessionTmp: c.AgentTmp,
		stdin: in.File(0), stdout: in.File(1), stderrFile: in.File(2), environ: env,
		signals: sigs, judge: j, ctx: ctx, workerToken: j.token, approvals: j.Approvals, recent: j.Egress,
		times: Times{ShimMain: main, Sent: sent}}
	switch {
	case in.NumFiles() != 3:
		s.refused = &exit.Error{Code: exit.Usage, Err: errors.New("lite-sandbox: session judge: a shim sends exactly its stdin, stdout and stderr")}
		return s
	case !filepath.IsAbs(cwd):
		s.refused = &exit.Error{Code: exit.Usage, Err: fmt.Errorf("lite-sandbox: session judge: working directory %q is not absolute", in.Dir)}
		return s
	}
	v, err := j.v.At(cwd)
	if err != nil {
		s.refused = &exit.Error{Code: exit.Sandbox, Err: err}
		return s
	}
	s.validator = v
	return s
}

// judgedArgv is the shell invocation a shim's argv stands for: itself,
// or for the shim under git's name, `bash -c 'git ARGS...'` (under a
// dashed name, `git SUB ARGS...`), so that git
// runs in the command sandbox with whatever a repository's files make it
// run (fsmonitor, hooks, filters, diff drivers, core.sshCommand), never
// in the agent ring (docs/security-model.md, repository content).
func judgedArgv(argv []string) (argv0 string, args []string) {
	if len(argv) == 0 {
		return contract.ShimBinary, nil
	}
	if forward.IsGitName(argv[0]) {
		git := []string{"git"}
		if sub := forward.GitSubcommand(argv[0]); sub != "" {
			git = append(git, sub) // git-upload-pack ARGS is git upload-pack ARGS
		}
		return "bash", []string{"-c", quoteArgv(append(git, argv[1:]...))}
	}
	return argv[0], argv[1:]
}

// agentProcess is the process that started the command's shim: the
// agent whose prompt may have posed a question about it (read only for
// an ask rule's command, off the common path). 0 when unknown.
func (s *Shim) agentProcess() int {
	if s.peer <= 0 {
		return 0
	}
	return procstat.Parent(s.peer)
}

// hookFresh bounds the age of the ask hook's shim: the agent started it
// for the tool call it is about to make. A process the agent started
// long ago (an MCP server) that execs the shim is refused, though its
// parent is the agent (escape class 63, docs/validator.md §8.2).
const hookFresh = 20 * time.Second

// askerProcess is the process that started the ask hook's shim, when
// the shim was started just now (hookFresh); 0 otherwise. The broker
// then asks only if it is the agent itself (term.IsAgent).
func (s *Shim) askerProcess() int {
	if s.peer <= 0 {
		return 0
	}
	age, ok := processAge(s.peer)
	if !ok || age > hookFresh {
		return 0
	}
	return procstat.Parent(s.peer)
}

// processAge is how long ago pid started, from its start time in
// /proc/PID/stat (field 22, in clock ticks since boot; Linux's USER_HZ
// is 100) and /proc/uptime.
func processAge(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, false
	}
	ticks, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return 0, false
	}
	u, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	up, err := strconv.ParseFloat(strings.Fields(string(u) + " 0")[0], 64)
	if err != nil {
		return 0, false
	}
	const userHZ = 100
	return time.Duration(up*float64(time.Second)) - time.Duration(ticks)*time.Second/userHZ, true
}
