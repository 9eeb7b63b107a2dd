// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/launch/ring"
	"github.com/lite-sandbox/lite-sandbox/launch/term"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// ringSupported says whether this platform starts the agent in a ring.
const ringSupported = ring.Supported

// ringKey marks a context whose program runs in the ring: bwrap does not
// forward signals, so the launcher signals the ring's process group.
type ringKey struct{}

func withRing(ctx context.Context) context.Context { return context.WithValue(ctx, ringKey{}, true) }

func inRing(ctx context.Context) bool { v, _ := ctx.Value(ringKey{}).(bool); return v }

// runInRing starts the agent inside the ring and, after it exited,
// releases the ring, restores the files the agent had to be able to
// write on the host but for their data keys (before, and whatever
// happens in, the copy-back of the kept files), saying so in one line
// each. A journal in the runtime root records the restore before the
// ring starts, for a launcher that dies before it (escape class 53).
func runInRing(ctx context.Context, o AgentOptions, b sandbox.Backend, info agents.Session, ls launchSpec, plan agents.Plan, env []string) (int, error) {
	spec, err := ls.get()
	if err != nil {
		return -1, err
	}
	in := ring.NewInput(o.Agent, info, o.Policy, spec, plan.Argv[0], o.Stderr)
	in.View = ls.view.Set
	in.Landlock = b.Name == sandbox.BackendLandlock
	snaps := ring.SnapshotGuards(in)
	forget, err := writeJournal(info.Dir, snaps)
	if err != nil {
		return -1, err
	}
	restored := false
	restore := func() {
		if restored {
			return
		}
		restored = true
		for _, l := range snaps.Restore() {
			esc.Fprintf(o.Stderr, "lite-sandbox: %s\n", l)
		}
		forget()
	}
	// Also when Prepare or Start fails, or the copy-back panics.
	defer restore()
	// The ring's one way out: the agent's own proxy (#27).
	upstream, err := o.Policy.Upstream(func(k string) string { return getenvIn(env, k) })
	if err != nil {
		return -1, err
	}
	n := ring.AgentNet(in)
	warn := func(err error) {
		esc.Fprintf(o.Stderr, "lite-sandbox: warning: the agent's egress log: %v\n", err)
	}
	var agentEnv []string
	if b.Name == sandbox.BackendLandlock {
		var stop func()
		agentEnv, stop, err = landlockRing(&ctx, &in, n, info.Dir, upstream, warn, ring.Env(in, env))
		if err != nil {
			return -1, err
		}
		defer stop()
	} else {
		sock, stopNet, err := n.Serve(info.Dir, upstream, warn)
		if err != nil {
			return -1, err
		}
		defer stopNet()
		agentEnv = n.Env(ring.Env(in, env), sock)
	}
	argv, done, err := ring.Prepare(b, in, plan.Argv, o.Stderr)
	if err != nil {
		return -1, err
	}
	t0 := time.Now()
	status, err := Start(withRing(ctx), agentEnv, argv, o.Stdin, o.Stdout, o.Stderr)
	done(restore)
	// After the agent's screen is gone: what its proxy refused (#27).
	if l := ring.ClosingLine(info.Dir, t0); l != "" {
		esc.Fprintf(o.Stderr, "lite-sandbox: %s\n", l)
	}
	return status, err
}

// getenvIn reads k from env (the last entry wins).
func getenvIn(env []string, k string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if n, v, ok := strings.Cut(env[i], "="); ok && n == k {
			return v
		}
	}
	return ""
}

// landlockRing sets up what the Landlock ring has instead of a network
// namespace and a Unix socket (#28): the agent's proxy on a port of the
// host's loopback (the ring's one TCP grant with agent.host_ports) and
// the judge's broker at descriptor 3 (contract.EnvJudgeFD), which ctx
// now carries to the start. It returns the agent's environment and what
// stops both.
func landlockRing(ctx *context.Context, in *ring.Input, n ring.Net, dir string, upstream *egress.Upstream, warn func(error), env []string) ([]string, func(), error) {
	port, stopNet, err := n.ServeTCP(dir, upstream, warn)
	if err != nil {
		return nil, nil, err
	}
	broker, stopBroker, err := judgeBroker(filepath.Join(dir, contract.JudgeName))
	if err != nil {
		stopNet()
		return nil, nil, err
	}
	in.ConnectTCP = n.PortsTCP(port)
	*ctx = term.WithFiles(*ctx, []*os.File{broker})
	env = append(n.EnvTCP(env, port), contract.EnvJudgeFD+"=3")
	return env, func() { broker.Close(); stopBroker(); stopNet() }, nil
}
