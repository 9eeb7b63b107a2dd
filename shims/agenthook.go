// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/pathjudge"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/forward"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// The agents' own hooks (#29): `'<exe>' hook NAME`, which launch
// installs for Codex and Crush (their routing) and for the file tools
// of Claude, Codex, Crush and Pi (the path judge), is answered by the
// session's judge in the launcher, as the ask hook is: the agent runs
// the hook through its shell, which in the agent ring is the shim, and
// the judge reads the hook's JSON from the shim's stdin and writes the
// answer to its stdout, with the frozen policy compiled once and the
// command parsed once. No lite-sandbox process starts per tool call
// (docs/performance.md, "The agents' hooks"). The hook explains and
// routes; the agent ring and the command sandbox are the boundary.

// hookAdapter is the adapter whose hook `hook NAME` runs: an agent with
// a routing hook (agents.Hooker) or a file hook (agents.FileHooker).
// The ask hook is the judge's alone (ask.go).
func hookAdapter(name string) (agents.Agent, error) {
	if name == askHookName {
		// docs/validator.md §8: only a session's judge answers it.
		return nil, errors.New("the ask hook is answered by a session's judge, through the session's shim; it does not run on its own")
	}
	a, err := registry.Lookup(name)
	if err != nil {
		return nil, err
	}
	_, hook := a.(agents.Hooker)
	if _, files := a.(agents.FileHooker); !hook && !files {
		return nil, fmt.Errorf("%s takes no hook (its routing is not hook-based)", name)
	}
	return a, nil
}

// answerHook is one call of a's hook: in is its JSON input (readErr
// when it could not be read), check judges a command, judge a path of
// a file tool, shim is the shell a routed command is rewritten to. The
// adapter never fails open: anything it cannot read denies.
func answerHook(a agents.Agent, in []byte, readErr error, check agents.Checker, judge agents.PathChecker, shim string) ([]byte, int) {
	if readErr != nil {
		in, check = nil, denyAll(readErr)
	}
	if fh, ok := a.(agents.FileHooker); ok {
		return fh.HookFiles(in, check, judge, shim)
	}
	return a.(agents.Hooker).Hook(in, check, shim)
}

// denyAll is a checker that denies everything with err as the reason.
func denyAll(err error) agents.Checker {
	return func(string) agents.Verdict {
		return agents.Verdict{Message: esc.Sprintf("lite-sandbox: the hook could not judge the command, so it was not run: %v", err)}
	}
}

// refuseAll is a path checker that refuses every path, saying why.
func refuseAll(err error) agents.PathChecker {
	return func(agents.FileAccess, string, string) agents.Verdict {
		return agents.Verdict{Message: esc.Sprintf("lite-sandbox: the hook could not judge the path, so the file tool was refused: %v", err)}
	}
}

// commandChecker judges a hook's command with v. An ask rule's command
// goes on to the shim in a session, whose judge asks a person
// (docs/validator.md §8): a hook has no one to ask. denied, when set,
// is told of each refusal.
func commandChecker(v *validator.Validator, mode policy.Mode, session bool, denied func(string, validator.Result)) agents.Checker {
	return func(cmd string) agents.Verdict {
		r := v.Check(cmd)
		ok := r.Allowed() || r.Decision == policy.Ask && session
		if !ok && denied != nil {
			denied(cmd, r)
		}
		return agents.Verdict{Allowed: ok, Message: DenialLine(r, mode, session)}
	}
}

// pathChecker is the path judge (pathjudge.Judge) over spec, the
// sandbox of the session's frozen policy, the same policy the command
// sandbox applies: visible is what the agent ring shows (nil without a
// ring), fsys where links are resolved, as the agent sees them.
func pathChecker(a agents.Agent, spec sandbox.Spec, visible []string, fsys sandbox.FS) agents.PathChecker {
	j := pathjudge.Judge{Spec: spec, Visible: visible, FS: fsys}
	if ow, ok := a.(agents.OwnWriter); ok {
		j.AgentWrite = ow.OwnWrites(spec.Home)
	}
	return func(fa agents.FileAccess, p, cwd string) agents.Verdict {
		acc, ok := sandboxAccess(fa)
		if !ok {
			return agents.Verdict{Message: fmt.Sprintf("lite-sandbox: the hook does not know file access %d, so the file tool was refused", fa)}
		}
		v := j.Judge(acc, p, cwd)
		return agents.Verdict{Allowed: v.Allowed, Message: v.Reason}
	}
}

// sandboxAccess is the one place an agent's file access becomes the path
// judge's: agents stays a leaf package (it imports nothing of ours), so
// it has a type of its own. An unknown value is refused, never read as
// another access.
func sandboxAccess(a agents.FileAccess) (sandbox.Access, bool) {
	switch a {
	case agents.FileRead:
		return sandbox.Read, true
	case agents.FileSearch:
		return sandbox.Search, true
	case agents.FileWrite:
		return sandbox.Write, true
	}
	return 0, false
}

// runAgentHook answers `'<exe>' hook NAME` in the session's judge: the
// hook's JSON is the shim's stdin, the answer goes to its stdout, and
// the status is the adapter's (2 blocks, for Crush and Claude). A
// command the hook refuses is recorded, as the ask hook's "no" is; an
// allowed one is recorded when it runs, through the shim it was
// rewritten to.
func (s *Shim) runAgentHook(name string) error {
	s.v.none = true
	a, err := hookAdapter(name)
	if err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: hook %s: %w", name, err)}
	}
	in, rerr := io.ReadAll(io.LimitReader(s.stdin, maxHookInput))
	if rerr != nil {
		rerr = fmt.Errorf("reading the hook input: %w", rerr)
	}
	check := commandChecker(s.validator, s.Mode, true, func(cmd string, r validator.Result) {
		s.v.command, s.v.result, s.v.none = cmd, r, false
	})
	out, code := answerHook(a, in, rerr, check, s.filePaths(a), contract.Shim(s.session.Dir))
	if _, err := s.stdout.Write(out); err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: hook %s: %w", name, err)}
	}
	if code != 0 {
		return &exit.Error{Code: code}
	}
	return nil
}

// filePaths is the path judge of a hook the judge answers: the launch's
// spec, what the agent ring shows, and links resolved in the file
// system of the process that ran the hook (in the ring: the ring's own
// home and /tmp, which the launcher does not see at those paths).
func (s *Shim) filePaths(a agents.Agent) agents.PathChecker {
	if s.judge == nil {
		return refuseAll(errors.New("no session judge"))
	}
	spec, err := s.judge.fileSpec()
	if err != nil {
		return refuseAll(err)
	}
	fsys, err := peerFS(s.peer)
	if err != nil {
		return refuseAll(err)
	}
	return pathChecker(a, spec, s.judge.View.get(), fsys)
}

// RingView is what the session's agent ring shows (sandbox.RingVisible),
// set by the launcher once the ring is prepared: the path judge of the
// agents' file hooks refuses a read elsewhere, naming agent.read. Until
// then, and without a ring, it is nil (no such refusal).
type RingView struct{ read atomic.Pointer[[]string] }

// Set records what the ring shows (on a nil view: nothing).
func (v *RingView) Set(read []string) {
	if v != nil {
		v.read.Store(&read)
	}
}

func (v *RingView) get() []string {
	if v == nil {
		return nil
	}
	if p := v.read.Load(); p != nil {
		return *p
	}
	return nil
}

// specOnce builds a sandbox spec from a policy once, on first use.
type specOnce struct {
	once sync.Once
	spec sandbox.Spec
	err  error
}

func (o *specOnce) get(c *config.Config) (sandbox.Spec, error) {
	o.once.Do(func() {
		o.spec, o.err = c.Policy.SandboxSpec(c.Workspace, c.Home, "")
		if o.err == nil {
			sandbox.DetectHost(&o.spec) // core.hooksPath targets are protected too
		}
	})
	return o.spec, o.err
}

// Hook is `lite-sandbox hook NAME`, the hook as the agent runs it where
// no shim stands in for its shell (outside the agent ring, and Pi's
// file hook before it went through the shim). In a session it forwards
// the call to the session's judge with this process's stdio, and loads
// nothing; a judge it cannot reach denies. Outside one (a launch
// without a sandbox backend) it loads the configuration and answers in
// this process. It returns the hook's status as an *exit.Error.
func Hook(name, configFile string, stdin io.Reader, stdout, stderr io.Writer) error {
	a, err := hookAdapter(name)
	if err != nil {
		return &exit.Error{Code: exit.Usage, Err: err}
	}
	var out []byte
	code := 0
	if dir := forward.Session(); dir != "" {
		status, ferr := forwardHook(dir, name)
		if ferr == nil && (status == 0 || status == exit.HookBlock) {
			return statusError(status) // the adapter's answer: go on, or block
		}
		if ferr == nil {
			ferr = fmt.Errorf("the session's judge failed (status %d)", status)
		}
		// Fail closed: nothing judged the call. Outside the agent ring
		// the hook's rewrite is the route (docs/agents.md §4.3).
		in, rerr := readHookInput(stdin)
		out, code = answerHook(a, in, rerr, denyAll(ferr), refuseAll(ferr), "")
	} else {
		out, code = hookInProcess(a, configFile, stdin)
	}
	if _, err := stdout.Write(out); err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("hook %s: %w", name, err)}
	}
	return statusError(code)
}

// forwardHook sends the hook command to the judge of the session in
// dir, as the shim would, with this process's stdio: the session's
// recorded binary is the one its judge answers for.
func forwardHook(dir, name string) (int, error) {
	// Only the metadata: the judge has the policy (Send checks that
	// dir is private before it connects).
	b, err := os.ReadFile(filepath.Join(dir, contract.MetaName))
	if err != nil {
		return 0, fmt.Errorf("session: %w", err)
	}
	var meta contract.Meta
	if err := json.Unmarshal(b, &meta); err != nil {
		return 0, fmt.Errorf("session %s: %s: %w", dir, contract.MetaName, err)
	}
	if meta.Exe == "" {
		return 0, fmt.Errorf("session %s records no lite-sandbox binary", dir)
	}
	line := agents.ShellQuote(meta.Exe) + " hook " + name
	return forward.Send(dir, []string{"sh", "-c", line}, time.Now())
}

// hookInProcess answers a hook outside a session with the configuration
// of the environment (LITE_SANDBOX_WORKSPACE, the policy files) and
// the shim of LITE_SANDBOX_SHIM; without that shim it denies.
func hookInProcess(a agents.Agent, configFile string, stdin io.Reader) ([]byte, int) {
	in, rerr := readHookInput(stdin)
	c, err := config.Load(config.Options{ConfigFile: configFile})
	var v *validator.Validator
	if err == nil {
		v, err = c.Validator()
	}
	shim := os.Getenv(contract.EnvShim)
	if err == nil && shim == "" {
		err = fmt.Errorf("no session (%s is not set)", contract.EnvSession)
	}
	if err != nil {
		return answerHook(a, in, rerr, denyAll(err), refuseAll(fmt.Errorf("the hook could not load the session's policy: %w", err)), "")
	}
	var spec specOnce
	judge := func(fa agents.FileAccess, p, cwd string) agents.Verdict {
		sp, err := spec.get(c)
		if err != nil {
			return refuseAll(err)(fa, p, cwd)
		}
		return pathChecker(a, sp, nil, nil)(fa, p, cwd)
	}
	return answerHook(a, in, rerr, commandChecker(v, c.Mode, false, nil), judge, shim)
}

// readHookInput reads a hook's JSON input, at most maxHookInput.
func readHookInput(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHookInput))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	return b, nil
}

// statusError is a silent exit status: nil for 0.
func statusError(code int) error {
	if code == 0 {
		return nil
	}
	return &exit.Error{Code: code}
}
