// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command benchmark measures what lite-sandbox costs, side by side in one
// run, against bare bash, a fresh bwrap and the peers (firejail,
// Anthropic's sandbox-runtime, `codex sandbox`) where they are
// installed, and prints medians, p95s, ratios, a phase breakdown and
// whether each target of docs/performance.md was met. Run it through
// scripts/bench, which builds the binaries first. It reports; it never
// fails on a number.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

type config struct {
	bin, noop  string
	n, files   int
	size       int64
	concurrent int
	peers      map[string]string
	agentsBin  string
	only       string // one row only (-only)
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "", "the lite-sandbox binary to measure (required)")
	flag.StringVar(&c.noop, "noop", "", "an empty Go program: the floor of a process start (required)")
	flag.IntVar(&c.n, "n", 200, "runs per setup")
	flag.IntVar(&c.files, "files", 20000, "files in the large workspace")
	flag.Int64Var(&c.size, "bytes", 1<<30, "bytes of output for the throughput test")
	flag.IntVar(&c.concurrent, "concurrent", 50, "commands at once for the concurrency test")
	flag.StringVar(&c.only, "only", "", `run one section only: "hooks", "session" (the session path's targets of #29: latency, phases, hooks, 50 at once), "landlock" (the backends' per-command rows), "usernet" (network = open beside host), "ringnet" (the agent ring's launch with its network namespace) or "firstbuild" (the row "new workspace, first go build: sandbox vs bare")`)
	srt := flag.String("srt", "", "Anthropic's sandbox-runtime CLI (default: srt on PATH)")
	codex := flag.String("codex", "", "the codex CLI (default: codex on PATH)")
	flag.StringVar(&c.agentsBin, "agents", os.Getenv("LITE_SANDBOX_AGENTS_BIN"), "a directory with the agent CLIs, for the launch timings")
	flag.Parse()
	if c.bin == "" || c.noop == "" {
		fmt.Fprintln(os.Stderr, "benchmark: -bin and -noop are required (use scripts/bench)")
		os.Exit(exit.Usage)
	}
	c.peers = map[string]string{"srt": *srt, "codex": *codex}
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "benchmark:", err)
		os.Exit(exit.Failed)
	}
}

// onlyAlone checks -only, and runs the sections that need no bench
// (firstbuild); done when it ran one.
func onlyAlone(c config) (done bool, err error) {
	switch c.only {
	case "", "hooks", "session", sandbox.BackendLandlock, "usernet", "ringnet":
		return false, nil
	case "firstbuild":
		goBin, err := exec.LookPath("go")
		if err != nil {
			return true, fmt.Errorf("-only firstbuild: %w", err)
		}
		return true, benchFirstBuild(c.bin, goBin, smallProgram)
	}
	return true, fmt.Errorf("-only %q: want hooks, session, landlock, usernet, ringnet or firstbuild", c.only)
}

// bench holds what the measurements share: the workspaces and sessions.
type bench struct {
	config
	home, small, large string
	backend            sandbox.Backend
	sessions           map[string]*launch.Session
	trace              map[string]*tracer // by session directory
}

func run(c config) error {
	var err error
	if c.bin, err = filepath.Abs(c.bin); err != nil {
		return err
	}
	if done, err := onlyAlone(c); done || err != nil {
		return err
	}
	base, err := os.MkdirTemp("/var/tmp", "lite-sandbox-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	// The sessions' judges write their audit records (part of each
	// command's cost) here, not to the user's log.
	os.Setenv("XDG_STATE_HOME", filepath.Join(base, "state"))
	b := &bench{config: c, home: filepath.Join(base, "home")}
	b.small, b.large = filepath.Join(b.home, "small"), filepath.Join(b.home, "large")
	if err := makeWorkspaces(b.small, b.large, c.files); err != nil {
		return err
	}
	if c.only == sandbox.BackendLandlock {
		return onlyLandlock(b, base)
	}
	if b.backend, err = sandbox.Detect(); err != nil {
		return err
	}
	if c.only == "usernet" {
		return userNetBench(c.bin, b.backend, b.small, b.home, c.n)
	}
	if c.only == "ringnet" {
		return ringNetBench(c.bin, c.noop, b.small, b.home, c.n)
	}
	closeAll, err := b.openSessions(filepath.Join(base, "run"))
	if err != nil {
		return err
	}
	defer closeAll()

	fmt.Printf("lite-sandbox benchmark: %s, %d cores, %s, %s; %d runs per setup\n", kernel(), runtime.NumCPU(), b.backend, runtime.Version(), c.n)
	switch c.only {
	case "hooks":
		return b.hooks()
	case "session":
		return b.session()
	}
	return b.all(base)
}

// session runs the sections of the session path's targets (#29): one
// command's latency and its phases, the hooks, and 50 at once.
func (b *bench) session() error {
	lat, err := b.latency()
	if err != nil {
		return err
	}
	b.phases(lat)
	if err := b.hooks(); err != nil {
		return err
	}
	return b.concurrency()
}

// all runs every section of the full benchmark, in order.
func (b *bench) all(base string) error {
	lat, err := b.latency()
	if err != nil {
		return err
	}
	b.phases(lat)
	c := b.config
	for _, section := range []func() error{
		b.hooks,
		func() error { return b.landlockBench(filepath.Join(base, "run-landlock")) },
		b.concurrency,
		b.throughput,
		b.workerMemory,
		func() error { return benchCaches(c.bin) },
		b.launchTimes,
		func() error { return egressBench(c.bin, b.small, b.home, c.n) },
		func() error { return userNetBench(c.bin, b.backend, b.small, b.home, c.n) },
	} {
		if err := section(); err != nil {
			return err
		}
	}
	return nil
}

func makeWorkspaces(small, large string, nfiles int) error {
	for _, d := range []string{small, large} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for i := range nfiles {
		dir := filepath.Join(large, fmt.Sprintf("d%03d", i/200))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte("package x\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// openSessions opens one session for the small and one for the large
// workspace, as `launch` would, with the default policy, and one for
// Codex and one for Claude over the small one (their hooks, hooks.go).
func (b *bench) openSessions(runtimeRoot string) (func(), error) {
	pol := policy.Default()
	frozen, err := pol.Marshal()
	if err != nil {
		return nil, err
	}
	b.sessions = map[string]*launch.Session{}
	b.trace = map[string]*tracer{}
	closeAll := func() {
		for _, s := range b.sessions {
			s.Close()
		}
	}
	for name, o := range map[string]struct{ ws, agent string }{
		"small": {b.small, ""}, "large": {b.large, ""}, "codex": {b.small, "codex"}, "claude": {b.small, "claude"},
	} {
		ws, meta := o.ws, contract.Meta{Workspace: o.ws, Home: b.home, Mode: "on", Agent: o.agent}
		if o.agent != "" {
			meta.Exe = b.bin // its own hook command: '<exe>' hook NAME
		}
		spec, err := pol.SandboxSpec(ws, b.home, "")
		if err != nil {
			closeAll()
			return nil, err
		}
		s, err := launch.Open(context.Background(), launch.Options{
			Spec: spec, Backend: b.backend, Exe: b.bin, PolicyTOML: frozen,
			Meta:        meta,
			RuntimeRoot: runtimeRoot,
			Judge: func(dir, token string) (launch.Judge, error) {
				j, err := shims.NewJudge(dir, token, frozen, meta)
				if err != nil {
					return nil, err
				}
				t := &tracer{}
				b.trace[dir] = t
				j.Trace = t.add
				return j, nil
			},
		})
		if err != nil {
			closeAll()
			return nil, err
		}
		b.sessions[name] = s
	}
	return closeAll, nil
}

// shim is one command through a session's shim, as an agent runs it.
func (b *bench) shim(name, script string) *exec.Cmd {
	s := b.sessions[name]
	c := exec.Command(filepath.Join(s.Dir, contract.ShimPath), "-c", script)
	c.Dir = b.small
	if name == "large" {
		c.Dir = b.large
	}
	c.Env = append(os.Environ(), contract.EnvSession+"="+s.Dir, "HOME="+b.home)
	return c
}

func bash(script string) *exec.Cmd {
	return exec.Command("/bin/bash", "--noprofile", "--norc", "-c", script)
}

func (b *bench) freshBwrap() (func() *exec.Cmd, func(), error) {
	spec, err := policy.Default().SandboxSpec(b.small, b.home, b.small)
	if err != nil {
		return nil, nil, err
	}
	prep, err := sandbox.Prepare(b.backend, spec, []string{"/bin/bash", "--noprofile", "--norc", "-c", "true"})
	if err != nil {
		return nil, nil, err
	}
	return func() *exec.Cmd { return &exec.Cmd{Path: prep.Path, Args: prep.Args, Dir: b.small} }, prep.Done, nil
}

func (b *bench) run(args ...string) *exec.Cmd {
	c := exec.Command(b.bin, append([]string{"run", "--sandbox", "on", "--"}, args...)...)
	c.Dir = b.small
	c.Env = append(os.Environ(), "HOME="+b.home)
	return c
}
