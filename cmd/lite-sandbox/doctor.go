// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/probe"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// DoctorCmd is `lite-sandbox doctor`.
type DoctorCmd struct {
	Workspace string `help:"The workspace to judge (default: the current directory)." placeholder:"DIR"`
	Sandbox   string `help:"auto, on or off (default: the policy's)." placeholder:"MODE" enum:"auto,on,off," default:""`
}

// Run prints the report. It fails only when the policy does not load.
func (c *DoctorCmd) Run(g *Globals, io stdio) error {
	s, _, err := load(config.Options{ConfigFile: g.Config, Workspace: c.Workspace, Mode: c.Sandbox})
	if err != nil {
		return err
	}
	w := io.out
	fmt.Fprintf(w, "lite-sandbox %s (%s/%s)\n", version(), runtime.GOOS, runtime.GOARCH)
	// A launcher that died before its restore left a journal.
	for _, l := range launch.ReplayJournals() {
		fmt.Fprintf(w, "restore: %s\n", l)
	}
	b, derr := sandbox.Reprobe()
	backendLines(w, b, derr)
	// What each sandboxed command gets on top of bwrap's namespaces;
	// its landlock line replaces the kernel's (it says the ABI too).
	conf := confine.Probe().Lines()
	k := probe.ReadKernel()
	if derr != nil {
		for _, l := range sandbox.AppArmorAdvice(k) {
			fmt.Fprintln(w, l)
		}
	}
	for _, l := range k.Lines() {
		if strings.HasPrefix(l, "landlock: ") {
			l = conf[1]
		}
		esc.Fprintf(w, "%s\n", l)
	}
	if b.Name == sandbox.BackendLandlock {
		// No bwrap: the namespaces line does not hold.
		conf[2] = "namespaces: none (landlock backend: the command's Landlock domain is its whole sandbox); no_new_privs"
	}
	esc.Fprintf(w, "%s\n%s\n", conf[0], conf[2])
	if b.Name == sandbox.BackendLandlock {
		esc.Fprintf(w, "network: %s\n", landlockNetworkLine(s.Policy.Sandbox.Network, b.ABI))
	} else {
		esc.Fprintf(w, "network: %s\n", networkLine(s.Policy))
	}
	esc.Fprintf(w, "workspace: %s\n", s.Workspace)
	esc.Fprintf(w, "mode: %s\n", s.Mode)
	esc.Fprintf(w, "policy files: %v\n", s.Policy.Sources)
	for _, ag := range registry.All() {
		a := ag.Info()
		if p, err := a.Path(); err == nil {
			esc.Fprintf(w, "agent %s: %s\n", a.Name, p)
		} else if p := launch.ScriptsAgentsBin(a.Binary, os.Getenv, s.Home); p != "" {
			esc.Fprintf(w, "agent %s: not on PATH; installed by scripts/agents at %s (to use it: export PATH=\"%s:$PATH\")\n", a.Name, p, filepath.Dir(p))
		} else {
			fmt.Fprintf(w, "agent %s: not installed (%s)\n", a.Name, a.Install)
		}
	}
	st, err := sandbox.Resolve(s.Mode, b, derr, s.Workspace, s.Home)
	if err != nil {
		esc.Fprintf(w, "sandbox: refused (%v)\n", err)
		return nil
	}
	esc.Fprintf(w, "sandbox: %s\n", st)
	if b.Name == sandbox.BackendLandlock {
		esc.Fprintf(w, "agent ring: %s\n", launch.LandlockRingLine())
		return nil
	}
	for _, l := range launch.RingLines(confine.Probe().Scoped, st.Sandboxed()) {
		esc.Fprintf(w, "%s\n", l)
	}
	return nil
}

// backendLines prints doctor's backend lines: the backend (the Landlock
// one with its ABI, what it lacks and why it was chosen), and in a
// container without user namespaces the recipe (docs/container.md).
func backendLines(w io.Writer, b sandbox.Backend, derr error) {
	switch {
	case derr == nil && b.Name == sandbox.BackendLandlock:
		esc.Fprintf(w, "backend: %s\n", sandbox.LandlockLine(b))
		if b.Fallback != "" {
			esc.Fprintf(w, "backend: chosen because %s\n", b.Fallback)
		}
	case derr == nil:
		fmt.Fprintf(w, "backend: %s at %s\n", b, b.Path)
	default:
		esc.Fprintf(w, "backend: none: %v\n", derr)
	}
	if l := probe.ReadContainer().Line(); l != "" {
		esc.Fprintf(w, "%s\n", l)
	}
}
