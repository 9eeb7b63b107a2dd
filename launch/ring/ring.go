// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package ring builds the agent ring of one launch (#8, #17): its spec
// from the policy, the adapter's state and the host (what the agent
// sees, writes and keeps), the scratch layers and what is left in them,
// the kept data files, the agent's environment, and the restore of
// code-carrying keys after it. The sandbox package turns the spec into
// bwrap's argv; the launcher starts it (docs/ring.md).
package ring

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// ringTmp is the session's private temporary directory, bound at /tmp in
// the agent ring.
const ringTmp = "tmp"

// Supported says whether this platform starts the agent in a ring.
// macOS has the profile builder only (never run here).
const Supported = runtime.GOOS == "linux"

// Input is what the launcher knows when it builds the ring.
type Input struct {
	Agent  agents.Agent
	Info   agents.Session
	Policy *policy.Policy
	// Spec is the session's command sandbox spec, the launch's one
	// (built and completed from the host once per launch, #29): the
	// ring shows the same system view, protected paths and deny list.
	Spec   sandbox.Spec
	Argv0  string    // the agent's program
	DryRun bool      // creates nothing
	Warn   io.Writer // where the spec says what it could not set up, or nil
	// State is the adapter's ring state, asked once per launch
	// ([NewInput]; adapters read their own config files for it); nil
	// for an agent that names none.
	State *agents.State
	// View, when set, is told what the ring shows (sandbox.RingVisible)
	// once it is prepared: the session's judge explains the agent's
	// file tools with it (shims.RingView).
	View func(read []string)
	// ConnectTCP are the ports the Landlock ring may connect to (its
	// proxy's, agent.host_ports: [Net.PortsTCP]); bwrap's ring ignores it.
	ConnectTCP []uint16
	// Landlock says the ring is the Landlock backend's (the dry run's
	// lines, the state's LandlockEnv and LandlockWrite).
	Landlock bool
}

// NewInput is an Input with the adapter's state asked once.
func NewInput(a agents.Agent, info agents.Session, p *policy.Policy, spec sandbox.Spec, argv0 string, warn io.Writer) Input {
	in := Input{Agent: a, Info: info, Policy: p, Spec: spec, Argv0: argv0, Warn: warn}
	if so, ok := a.(agents.StateOwner); ok {
		st := so.State(info)
		in.State = &st
	}
	return in
}

// ringState is the session's directory of the state layers' scratch
// directories (one per agents.State.Dirs entry, numbered).
const ringState = "state"

// gitIdentity gives the ring the command sandbox's sanitized copy of
// the user's global git configuration at ~/.gitconfig (no credential
// helpers, no tokens in URLs), not the files themselves (#31): the XDG
// git directory is shown (ignore, attributes) without its config, which
// the copy holds, and its credentials stay denied. A dry run makes
// nothing.
func gitIdentity(r *sandbox.RingSpec, in Input) error {
	info := in.Info
	if info.Home == "" {
		return nil
	}
	xdg := filepath.Join(info.Home, ".config")
	if d := info.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		xdg = filepath.Clean(d)
	}
	r.Read = append(r.Read, filepath.Join(xdg, "git"))
	r.Hide = append(r.Hide, filepath.Join(xdg, "git", "config"))
	if in.DryRun {
		return nil
	}
	if r.Command.GitHome.Config != "" {
		return nil // the session's copy (launch.Open), bound by its worker too
	}
	if err := sandbox.WriteGitHome(&r.Command, filepath.Join(in.Info.Dir, GitConfigName)); err != nil {
		return fmt.Errorf("launch: ring: %w", err)
	}
	return nil
}

// GitConfigName is the session's file holding the sanitized copy of the
// user's git configuration ([sandbox.WriteGitHome]) that the worker's
// sandbox and the ring bind at ~/.gitconfig.
const GitConfigName = "gitconfig"

// createState makes the state the agent would create on a first run and
// cannot create in the ring. Failures are left to the agent to report.
func createState(st agents.State) {
	for _, d := range st.CreateDirs {
		os.MkdirAll(d, 0o700)
	}
	for _, f := range st.CreateJSON {
		if fh, err := os.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			fh.WriteString("{}\n")
			fh.Close()
		}
	}
	for _, f := range st.CreateFiles {
		if fh, err := os.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			fh.Close()
		}
	}
}

// ringSpec builds the ring of one agent start: the session's command
// sandbox spec (the same system view, protected paths and deny list),
// what the agent reads besides (its installation, the lite-sandbox
// binaries, git identity, agent.read), the adapter's state (layers,
// data, credentials), the user's agent.write, the agent's private temp
// dir, the shells and git of this host (bound to the shim binary) and
// the session directory.
func ringSpec(in Input) (sandbox.RingSpec, error) {
	info := in.Info
	shim := contract.FindShimBinary(info.Exe)
	r := sandbox.RingSpec{
		Command: in.Spec.Clone(),
		Tmp:     filepath.Join(info.Dir, ringTmp),
		Session: info.Dir,
		Exe:     shim,
		Read:    []string{info.Exe, shim},
		// Other sessions' sockets and policies, wherever a grant shows
		// them.
		Hide:       []string{filepath.Dir(info.Dir)},
		Shims:      append(sandbox.HostShells(), sandbox.HostGits(filepath.SplitList(info.Getenv("PATH")))...),
		ConnectTCP: in.ConnectTCP,
	}
	r.Read = append(r.Read, installRoots(in.Argv0, info.Getenv)...)
	if err := gitIdentity(&r, in); err != nil {
		return sandbox.RingSpec{}, err
	}
	if info.Home != "" && info.Home != "/" {
		r.HomeScratch = filepath.Join(info.Dir, ringHome)
	}
	for _, g := range in.Policy.Agent.Read {
		p, err := sandbox.ExpandHome(g, info.Home)
		if err != nil {
			return sandbox.RingSpec{}, fmt.Errorf("launch: agent.read: %w", err)
		}
		r.Read = append(r.Read, p)
	}
	if in.State != nil {
		st := *in.State
		if !in.DryRun {
			createState(st)
		}
		// Listed after createState: the state it made is bound too. The
		// kept data files are copies in the scratch, not bound.
		for i, d := range cleanAll(st.Dirs) {
			k := kept{dir: d, files: st.Keep}
			var names []string
			for _, n := range dirNames(d) {
				if !k.isKept(filepath.Join(d, n)) {
					names = append(names, n)
				}
			}
			r.Layers = append(r.Layers, sandbox.Layer{Dir: d, Scratch: filepath.Join(info.Dir, ringState, strconv.Itoa(i)), Entries: names})
		}
		r.Read = append(r.Read, cleanAll(st.Read)...)
		r.Write = append(r.Write, cleanAll(st.Write)...)
		if in.Landlock {
			r.Write = append(r.Write, landlockWrite(st, in.DryRun)...)
		}
		r.SessionWrite = append(r.SessionWrite, cleanAll(st.SessionWrite)...)
		for _, c := range cleanAll(st.Credentials) {
			if !inKept(c, r.Layers, st.Keep) {
				r.Credentials = append(r.Credentials, c)
			}
		}
		for _, g := range st.ReadOnly {
			r.Guard = append(r.Guard, sandbox.Protected{Path: filepath.Clean(g), Dir: strings.HasSuffix(g, "/")})
		}
	}
	for _, w := range in.Policy.Agent.Write {
		p, err := sandbox.ExpandHome(w, info.Home)
		if err != nil {
			return sandbox.RingSpec{}, fmt.Errorf("launch: agent.write: %w", err)
		}
		r.Write = append(r.Write, p)
	}
	// The agent's private temp dir (Claude's cwd files), at the same path
	// for the agent and its shims; the command sandbox never sees it.
	if info.TmpDir != "" {
		r.Write = append(r.Write, info.TmpDir)
	}
	return r, nil
}

// inKept says whether p is a kept data file of one of the layers (a
// credential there is the scratch's copy, not a bind).
func inKept(p string, layers []sandbox.Layer, files []agents.KeptFile) bool {
	for _, l := range layers {
		if filepath.Dir(p) == l.Dir && (kept{l.Dir, files}).matches(filepath.Base(p)) {
			return true
		}
	}
	return false
}

// ringKept are the layers' kept data files, with their scratches.
func ringKept(in Input, r sandbox.RingSpec) map[string]kept {
	if in.State == nil {
		return nil
	}
	out := map[string]kept{}
	for _, l := range r.Layers {
		out[l.Scratch] = kept{dir: l.Dir, files: in.State.Keep}
	}
	return out
}

// dirNames lists the names in dir (none when it cannot be read).
func dirNames(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
}

func cleanAll(ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// realOrSelf resolves p's symlinks, or returns it as it is.
func realOrSelf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// quietNames are the names left in the ring's scratch that need no
// line: the adapter's (agents.State.Scratch) and Go's telemetry.
func quietNames(in Input, home string) []string {
	var out []string
	if home != "" && home != "/" {
		out = append(out, GoTelemetry(home))
	}
	if in.State != nil {
		out = append(out, in.State.Scratch...)
	}
	return out
}

// Prepare prepares the ring around plan's argv: the private /tmp,
// the scratch home and the state layers' scratch directories are made,
// the argv is wrapped in bwrap and the confine step. done, called after
// the agent exited, releases the ring's placeholders, calls restore (the
// guarded files go back first, whatever the copy-back does: escape
// class 53), copies the kept data files back and says what the ring
// left in the scratch directories.
func Prepare(b sandbox.Backend, in Input, argv []string, stderr io.Writer) (wrapped []string, done func(restore func()), err error) {
	r, err := ringSpec(in)
	if err != nil {
		return nil, nil, err
	}
	if err := os.Mkdir(r.Tmp, 0o700); err != nil && !os.IsExist(err) {
		return nil, nil, fmt.Errorf("launch: ring: %w", err)
	}
	var scratches []scratch
	var keeps map[string]kept
	if b.Name != sandbox.BackendLandlock {
		// The Landlock ring has no mounts: nothing lands in a scratch
		// (docs/ring.md "The Landlock ring").
		scratches = ringScratches(r)
		keeps = ringKept(in, r)
	}
	for _, sc := range scratches {
		if err := makeScratch(sc.dir, sc.real); err != nil {
			return nil, nil, err
		}
		if k, ok := keeps[sc.dir]; ok {
			if err := copyKept(k, sc.dir); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, d := range r.SessionWrite {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, fmt.Errorf("launch: ring: %w", err)
		}
	}
	prep, err := sandbox.PrepareRing(b, r, argv)
	if err != nil {
		return nil, nil, fmt.Errorf("launch: ring: %w", err)
	}
	if in.View != nil {
		in.View(sandbox.RingVisible(prep.Mounts))
	}
	done = func(restore func()) {
		prep.Done()
		// Protected paths the ring made, moved away by the guard
		// (docs/confinement.md, "Protected paths").
		for _, q := range prep.Quarantined() {
			fmt.Fprintln(stderr, "lite-sandbox: "+q.String())
		}
		restore()
		for _, sc := range scratches {
			if k, ok := keeps[sc.dir]; ok {
				persistKept(stderr, k, sc.dir)
			}
		}
		finishScratches(stderr, scratches, prep.Mounts, r.Command.Home, keeps, quietNames(in, r.Command.Home))
	}
	return prep.Args, done, nil
}

// Print is --dry-run's description of the ring.
func Print(w io.Writer, in Input) error {
	var b strings.Builder
	if !Supported {
		fmt.Fprintf(&b, "ring: none on %s (the agent would start unconfined; only its shell commands are sandboxed)\n", runtime.GOOS)
		_, err := io.WriteString(w, b.String())
		return err
	}
	in.DryRun = true
	r, err := ringSpec(in)
	if err != nil {
		return err
	}
	ms, err := sandbox.RingLayout(r, sandbox.OSFS{})
	if err != nil {
		return fmt.Errorf("dry run: %w", err)
	}
	if in.Landlock {
		fmt.Fprintf(&b, "ring (landlock: no namespace; no_new_privs, seccomp (no Unix sockets below ABI 9: the judge's connection made by the launcher), Landlock rules and scopes; these mounts' own-path binds become grants, everything shown elsewhere than its source (scratch home, state layers, ~/.gitconfig, the shells and gits) is absent; the host's /proc, no private /tmp: TMPDIR is the session's tmp):\n")
		fmt.Fprintf(&b, "  %s\n", AgentNet(in).LineLandlock())
	} else {
		fmt.Fprintf(&b, "ring (bubblewrap: own PID, IPC and network namespaces, fresh /proc and /dev, no_new_privs, seccomp, Landlock scopes; nothing of the host but these mounts):\n")
		fmt.Fprintf(&b, "  %s\n", AgentNet(in).Line())
	}
	for _, m := range ms {
		fmt.Fprintf(&b, "  %s\n", m)
	}
	shimmed := "shimmed shells and git (bound to " + r.Exe + ")"
	if in.Landlock {
		shimmed = "shells and git neither readable nor executable in the ring (route shells by the agent's configuration to " + r.Exe + ")"
	}
	fmt.Fprintf(&b, "%s:\n", shimmed)
	for _, s := range r.Shims {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("dry run: %w", err)
	}
	return nil
}

// Env is the agent's environment in the ring: env scrubbed by
// secret_env and of host IPC but the agent's login variables and
// agent.env (escape classes 3, 44, 45), with TMPDIR the ring's private
// /tmp (the launcher's may name a directory it hides).
func Env(in Input, env []string) []string {
	var login []string
	if in.State != nil {
		login = in.State.LoginEnv
	}
	out := append(in.Policy.AgentEnv(env, login), "TMPDIR=/tmp")
	if in.Landlock && in.State != nil {
		out = append(out, in.State.LandlockEnv...)
	}
	return out
}

// landlockWrite are the paths the agent must write in the Landlock ring
// ([agents.State] LandlockWrite), made when missing as the agent would
// on its first run (Landlock grants only what exists): a file empty
// (0600), a directory (a trailing "/") 0700.
func landlockWrite(st agents.State, dryRun bool) []string {
	out := cleanAll(st.LandlockWrite)
	for _, w := range st.LandlockWrite {
		switch {
		case dryRun || !filepath.IsAbs(w):
		case strings.HasSuffix(w, "/"):
			os.Mkdir(w, 0o700)
		default:
			if fh, err := os.OpenFile(w, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
				fh.Close()
			}
		}
	}
	return out
}

// maxListed bounds the files named in the closing line.
const maxListed = 10
