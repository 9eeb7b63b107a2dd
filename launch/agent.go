// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/launch/ring"
	"github.com/lite-sandbox/lite-sandbox/launch/term"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/git"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// AgentOptions describe one `lite-sandbox launch AGENT` run.
type AgentOptions struct {
	Agent     agents.Agent
	Args      []string // the user's own arguments for the agent
	Policy    *policy.Policy
	Workspace string // absolute, symlinks resolved
	Home      string
	Mode      policy.Mode
	Exe       string // the lite-sandbox binary; default os.Executable
	// DryRun prints what would be written and run, and starts nothing.
	DryRun bool
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer // also where warnings go
	// Environ is the launcher's environment; default os.Environ().
	Environ []string
	// KeepHome, when set, is where the session's scratch home is copied
	// when the session ends (see scratchhome.go).
	KeepHome string
	// AskWait bounds how long a command an `ask` rule holds back waits
	// for `lite-sandbox approve` (docs/validator.md §8); 0 refuses at
	// once unless the agent's hook asks on the confirm line.
	AskWait time.Duration
}

// NotInstalledError is returned when the agent's CLI cannot be found or
// run; its message names the install command.
type NotInstalledError struct{ Err error }

func (e *NotInstalledError) Error() string { return e.Err.Error() }
func (e *NotInstalledError) Unwrap() error { return e.Err }

// RunAgent opens a session, lets the adapter generate the agent's
// configuration into the session directory, and starts the agent (with
// its own login and settings) in the agent ring on Linux with a backend,
// else on the host, with its shell commands routed through the session's
// shim: on a pty when stdin is a terminal, with plain stdio otherwise. It closes the session on every
// path and returns the agent's exit status.
func RunAgent(ctx context.Context, o AgentOptions) (int, error) {
	info, environ, ls, err := sessionInfo(ctx, o)
	if err != nil {
		return -1, err
	}
	if o.DryRun {
		return dryRun(o, info, ls)
	}
	// A launcher that died before its restore (escape class 53).
	for _, l := range ReplayJournals() {
		fmt.Fprintf(o.Stderr, "lite-sandbox: %s\n", l)
	}

	b, derr := sandbox.Probe()
	st, err := sandbox.Resolve(o.Mode, b, derr, o.Workspace, o.Home)
	if err != nil {
		return -1, err
	}
	warnState(o.Stderr, st)

	if info.TmpDir, err = agentTmpDir(); err != nil {
		return -1, err
	}
	defer os.RemoveAll(info.TmpDir)

	var nestedBefore map[string]string
	if st.Sandboxed() {
		nestedBefore = git.Nested(o.Workspace)
		scratch, err := newScratchHome(o.Home)
		if err != nil {
			return -1, err
		}
		// Registered before Close, so it runs after the worker is gone.
		defer scratch.finish(o.Stderr, o.KeepHome)
		info.Prompt = canPrompt(o, ringSupported)
		ask := approval.Options{Wait: o.AskWait, Prompt: info.Prompt}
		s, err := openSession(ctx, o.Policy, ls, o.Mode, b, info, o.Agent.Name(), scratch.dir, ask, o.Stderr)
		if err != nil {
			return -1, err
		}
		defer s.Close()
		info.Dir = s.Dir
		ls.shareGitHome(s)
	} else {
		d, err := shimOnlyDir(info.Exe)
		if err != nil {
			return -1, err
		}
		defer os.RemoveAll(d)
		info.Dir = d
	}
	info.Shim = contract.Shim(info.Dir)
	// The agent ring needs the session (its shells are the shim, which
	// needs the worker) and the backend.
	info.Ring = ringSupported && st.Sandboxed()
	printStartLine(o.Stderr, o.Agent, info.Ring, st.Sandboxed(), st.Backend.Name == sandbox.BackendLandlock)

	plan, err := o.Agent.Prepare(info)
	if err != nil {
		return -1, err
	}
	if err := writeFiles(info.Dir, plan.Files); err != nil {
		return -1, err
	}
	for _, w := range plan.Warnings {
		esc.Fprintf(o.Stderr, "lite-sandbox: WARNING: %s\n", w)
	}
	env := applyEnv(environ, routingEnv(info, o.Agent.Name(), o.Mode, st.Sandboxed()), plan)
	started := time.Now()
	var status int
	if !info.Ring {
		status, err = Start(ctx, env, plan.Argv, o.Stdin, o.Stdout, o.Stderr)
	} else {
		status, err = runInRing(ctx, o, b, info, ls, plan, env)
	}
	reportNested(o.Stderr, nestedBefore, o.Workspace, info.Dir, info.Getenv)
	printResume(o.Stderr, o.Agent, info, started)
	return status, err
}

// canPrompt says whether the agent's hook asks the session's questions:
// a policy with an ask rule, an agent with an ask hook (agents.Asker),
// in the ring (term.IsAgent tells the agent there), on the launcher's
// terminal (where term.Confirm draws the question and reads the
// person's y). Otherwise no hook runs before its commands.
func canPrompt(o AgentOptions, ring bool) bool {
	if _, ok := o.Agent.(agents.Asker); !ok || !ring || !o.Policy.Asks() {
		return false
	}
	f, ok := o.Stdin.(*os.File)
	return ok && term.IsTerminal(f)
}

// sessionInfo is what the adapter learns of the launch before anything
// is created: the binary, the detected CLI, the places and the launcher's
// environment (returned too, for the agent's), and the launch's one
// sandbox spec.
func sessionInfo(ctx context.Context, o AgentOptions) (agents.Session, []string, launchSpec, error) {
	exe, err := ownExe(o.Exe)
	if err != nil {
		return agents.Session{}, nil, launchSpec{}, err
	}
	environ := o.Environ
	if environ == nil {
		environ = os.Environ()
	}
	getenv := func(k string) string {
		for i := len(environ) - 1; i >= 0; i-- {
			if n, v, _ := strings.Cut(environ[i], "="); n == k {
				return v
			}
		}
		return ""
	}
	det, err := o.Agent.Detect(ctx)
	if err != nil && o.DryRun {
		// A newcomer previews before installing (issue 31): the plan
		// names the binary as PATH would find it.
		fmt.Fprintf(o.Stderr, "lite-sandbox: %s: %v; the plan below assumes it is installed\n", o.Agent.Name(), err)
		det, err = agents.Detected{Path: o.Agent.Info().Binary, Version: "not installed"}, nil
	}
	if err != nil {
		return agents.Session{}, nil, launchSpec{}, &NotInstalledError{fmt.Errorf("%s: %w", o.Agent.Name(), err)}
	}
	info := agents.Session{
		Exe:       exe,
		Workspace: o.Workspace,
		Home:      o.Home,
		Agent:     det,
		Args:      o.Args,
		Getenv:    getenv,
	}
	ls := newLaunchSpec(o.Policy, o.Workspace, o.Home)
	addFileRules(&info, ls)
	return info, environ, ls, nil
}

// dryRun is --dry-run: what would be generated and run, and the ring.
func dryRun(o AgentOptions, info agents.Session, ls launchSpec) (int, error) {
	info.Dir = filepath.Join(defaultRuntimeRoot(), "s-DRYRUN")
	info.Shim = contract.Shim(info.Dir)
	info.TmpDir = filepath.Join(os.TempDir(), "lite-sandbox-agent-DRYRUN")
	info.Ring = ringSupported && o.Mode != policy.ModeOff
	landlock := false
	if b, err := sandbox.Probe(); err == nil && o.Mode != policy.ModeOff {
		if l := sandbox.LandlockLine(b); l != "" {
			// The backend this launch would use, and what it lacks (#28).
			fmt.Fprintf(o.Stdout, "sandbox: %s; agent ring: %s\n", l, ring.LandlockLacks)
			landlock = true
		}
	}
	plan, err := o.Agent.Prepare(info)
	if err != nil {
		return -1, err
	}
	env := routingEnv(info, o.Agent.Name(), o.Mode, true)
	if err := printPlan(o.Stdout, info, plan, env); err != nil {
		return 0, err
	}
	if err := printSettings(o.Stdout, o.Policy, o.Home, info.Getenv, o.Environ); err != nil || !info.Ring {
		return 0, err
	}
	spec, err := ls.get()
	if err != nil {
		return 0, err
	}
	in := ring.NewInput(o.Agent, info, o.Policy, spec, plan.Argv[0], nil)
	in.Landlock = landlock
	return 0, ring.Print(o.Stdout, in)
}

// shimOnlyDir is the directory of a launch without a worker: only the
// shim's link, which validates each command and runs it on its own, as
// `lite-sandbox run` would (unsandboxed, with a warning, in auto mode
// without a backend). The caller removes it.
func shimOnlyDir(exe string) (string, error) {
	d, err := os.MkdirTemp("", "lite-sandbox-launch-")
	if err != nil {
		return "", fmt.Errorf("launch: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(d, filepath.Dir(contract.ShimPath)), 0o700); err != nil {
		os.RemoveAll(d)
		return "", fmt.Errorf("launch: %w", err)
	}
	if err := os.Symlink(contract.FindShimBinary(exe), filepath.Join(d, contract.ShimPath)); err != nil {
		os.RemoveAll(d)
		return "", fmt.Errorf("launch: %w", err)
	}
	return d, nil
}

// ownExe returns the lite-sandbox binary's real path.
func ownExe(exe string) (string, error) {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("launch: find own binary: %w", err)
		}
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}

func warnState(w io.Writer, st sandbox.Status) {
	switch st.State {
	case sandbox.StateUnavailable:
		fmt.Fprintf(w, "lite-sandbox: WARNING: no sandbox: %s; commands will run UNSANDBOXED and the agent itself without its ring (use --sandbox on to refuse instead)\n", st.Reason)
	case sandbox.StateDegraded:
		fmt.Fprintf(w, "lite-sandbox: WARNING: sandbox degraded: %s\n", st.Reason)
	}
	if l := sandbox.LandlockLine(st.Backend); l != "" {
		fmt.Fprintf(w, "lite-sandbox: %s; agent ring: %s\n", l, ring.LandlockLacks)
	}
}

// routingEnv is what the launcher itself sets for the agent: SHELL and
// LITE_SANDBOX_SHIM at the shim, and the session (or, without a worker,
// the workspace, mode and agent for the shim).
func routingEnv(info agents.Session, agent string, mode policy.Mode, session bool) []string {
	env := []string{"SHELL=" + info.Shim, contract.EnvShim + "=" + info.Shim}
	if session {
		return append(env, contract.EnvSession+"="+info.Dir)
	}
	return append(env, contract.EnvWorkspace+"="+info.Workspace, contract.EnvMode+"="+string(mode), contract.EnvAgent+"="+agent)
}

// routingNames are always removed from the inherited environment: an
// agent started from inside another session must not see two.
var routingNames = []string{"SHELL", contract.EnvShim, contract.EnvSession, contract.EnvWorkspace, contract.EnvMode, contract.EnvAgent}

// applyEnv returns base without the routing variables and the plan's
// Unset and Env names, then routing, then the plan's Env.
func applyEnv(base, routing []string, plan agents.Plan) []string {
	drop := map[string]bool{}
	for _, n := range routingNames {
		drop[n] = true
	}
	for _, n := range plan.Unset {
		drop[n] = true
	}
	for _, kv := range append(slices.Clone(routing), plan.Env...) {
		n, _, _ := strings.Cut(kv, "=")
		drop[n] = true
	}
	out := make([]string, 0, len(base)+len(routing)+len(plan.Env))
	for _, kv := range base {
		n, _, _ := strings.Cut(kv, "=")
		if !drop[n] {
			out = append(out, kv)
		}
	}
	out = append(out, routing...)
	return append(out, plan.Env...)
}

// writeFiles writes the plan's files, each below dir.
func writeFiles(dir string, files []agents.File) error {
	for _, f := range files {
		if !hostpath.Below(f.Path, dir) {
			return fmt.Errorf("launch: adapter file %s is outside the session directory %s", f.Path, dir)
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
			return fmt.Errorf("launch: %w", err)
		}
		if f.Link != "" {
			if err := os.Symlink(f.Link, f.Path); err != nil {
				return fmt.Errorf("launch: %w", err)
			}
			continue
		}
		mode := os.FileMode(f.Mode)
		if mode == 0 {
			mode = 0o600
		}
		if err := os.WriteFile(f.Path, f.Content, mode); err != nil {
			return fmt.Errorf("launch: %w", err)
		}
	}
	return nil
}

// printPlan is --dry-run's output.
func printPlan(w io.Writer, info agents.Session, plan agents.Plan, routing []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "agent: %s (%s)\n", info.Agent.Path, info.Agent.Version)
	fmt.Fprintf(&b, "session: %s (created at start)\n", info.Dir)
	fmt.Fprintf(&b, "agent temp dir (not visible in the sandbox): %s\n", info.TmpDir)
	fmt.Fprintf(&b, "argv:\n")
	for _, a := range plan.Argv {
		fmt.Fprintf(&b, "  %s\n", agents.ShellQuote(a))
	}
	fmt.Fprintf(&b, "env:\n")
	set := append(slices.Clone(routing), plan.Env...)
	sort.Strings(set)
	for _, kv := range set {
		fmt.Fprintf(&b, "  set %s\n", kv)
	}
	unset := slices.Clone(plan.Unset)
	sort.Strings(unset)
	for _, n := range unset {
		fmt.Fprintf(&b, "  unset %s\n", n)
	}
	for _, f := range plan.Files {
		if f.Link != "" {
			fmt.Fprintf(&b, "file %s -> %s\n", f.Path, f.Link)
			continue
		}
		fmt.Fprintf(&b, "file %s:\n", f.Path)
		for _, l := range strings.SplitAfter(strings.TrimRight(string(f.Content), "\n"), "\n") {
			fmt.Fprintf(&b, "  | %s", strings.TrimRight(l, "\n")+"\n")
		}
	}
	for _, wn := range plan.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("dry run: %w", err)
	}
	return nil
}
