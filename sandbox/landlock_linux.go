// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/guard"
)

// landlockPath stands in for the backend's program: there is none, the
// kernel is the sandbox.
const landlockPath = "(kernel)"

// envBackend chooses the backend: "bwrap", "landlock" or "" (auto:
// bwrap where it can build a sandbox, else Landlock). `--backend`
// sets it for the process and its sessions.
const envBackend = "LITE_SANDBOX_BACKEND"

// DetectLandlock returns the Landlock backend when the kernel has
// Landlock (any ABI: each right is dropped only as far as the ABI
// requires) and a seccomp filter for this architecture.
func DetectLandlock() (Backend, error) {
	c := confine.Probe()
	if c.LandlockABI < 1 {
		return Backend{}, fmt.Errorf("landlock unavailable (%s)", c.LandlockWhy)
	}
	if !c.Seccomp {
		return Backend{}, fmt.Errorf("landlock backend needs the seccomp filter: %s", c.SeccompWhy)
	}
	return Backend{Name: BackendLandlock, Path: landlockPath, Version: "ABI " + strconv.Itoa(c.LandlockABI), ABI: c.LandlockABI}, nil
}

// withLandlock applies the backend choice to bwrap's probe outcome:
// landlock on request, else Landlock where bwrap cannot build a
// sandbox (then the error says both).
func withLandlock(b Backend, err error) (Backend, error) {
	switch os.Getenv(envBackend) {
	case BackendLandlock:
		return DetectLandlock()
	case "bwrap":
		return b, err
	}
	if err == nil {
		return b, nil
	}
	lb, lerr := DetectLandlock()
	if lerr != nil {
		return Backend{}, fmt.Errorf("%w; %v", err, lerr)
	}
	lb.Fallback = err.Error()
	return lb, nil
}

// prepareLandlock is [Prepare] for the Landlock backend: argv must be
// the confinement step's ([confine.Argv]); the policy goes into its
// arguments. The layout is bwrap's, turned into Landlock grants
// ([landlockPolicy]), with the workspace writable as a whole and its
// protected paths held by the launcher's guard ([unprotectWorkspace]);
// no placeholder is made. Done stops the guard (a last check), releases
// the workspace's lock and removes the temp directory that stands in
// for /tmp.
func prepareLandlock(s Spec, argv []string) (*Prepared, error) {
	if err := checkCommand(s, argv); err != nil {
		return nil, err
	}
	if len(argv) < 3 || argv[1] != confine.Command || argv[2] != "--" {
		return nil, &SetupError{Op: "backend", Err: errors.New("the landlock backend runs commands through the confinement step only")}
	}
	if s.Network == NetworkAllow {
		// The proxy's bridge listens on the sandbox's own loopback, which
		// only a network namespace gives; on the host's it would serve
		// every local process (docs/confinement.md).
		return nil, &SetupError{Op: "network", Err: errors.New(`network = "allow" needs the bwrap backend (a network namespace); with the landlock backend use "off" or "open"`)}
	}
	DetectHost(&s)
	// No writable layer can be put over a cache: the caches not shared
	// are read-only (docs/confinement.md).
	s.CacheLayer = ""
	mounts, err := Layout(s, OSFS{})
	if err != nil {
		return nil, &SetupError{Op: "layout", Err: err}
	}
	mounts = unprotectWorkspace(s, mounts)
	tmp, err := os.MkdirTemp("", "lite-sandbox-tmp-")
	if err != nil {
		return nil, &SetupError{Op: "temp dir", Err: err}
	}
	ll := landlockPolicy(mounts, tmp, s.Network)
	args := append([]string{argv[0], confine.Command}, ll.Args()...)
	args = append(args, argv[2:]...)
	p := &Prepared{Path: argv[0], Args: args, Mounts: mounts}
	if err := guardLandlock(s, p); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	release := p.release
	p.release = func() {
		release()
		os.RemoveAll(tmp)
	}
	return p, nil
}

// guardLandlock takes the workspace's lock (after the sweep of a crashed
// sandbox's leftovers, so that the copies are of what is restored),
// copies the workspace's protected paths (or takes the first sandbox's
// copies) and starts their guard; p's release stops it and releases the
// lock.
func guardLandlock(s Spec, p *Prepared) error {
	lock := lockWorkspace(s.Workspace)
	qdir := quarantineDir(s.Home, s.Workspace)
	ks, missing, err := keptPaths(s)
	if err == nil && lock != nil {
		p.quarantined = lock.swept
		ks = guard.Share(lock.first, keptRecord(lock.record), ks, qdir)
		guard.Record(missing, qdir, guardRecord(lock.record))
	}
	var g *guard.Guard
	if err == nil {
		g, err = guard.Start(missing, ks, qdir)
	}
	if err != nil {
		if lock != nil {
			lock.release()
		}
		return &SetupError{Op: "guard", Err: err}
	}
	p.release = func() {
		p.quarantined = append(p.quarantined, g.Stop()...)
		if lock != nil {
			p.quarantined = append(p.quarantined, lock.release()...)
		}
	}
	return nil
}

// unprotectWorkspace drops the mounts that keep protected paths inside
// the workspace read-only (their binds, placeholders and guards): under
// Landlock the workspace is writable as one hierarchy, so that new
// files can be made at its root and git can write .git, and the
// launcher's guard holds those paths instead ([keptPaths]). Protected
// paths outside the workspace (a linked worktree's common directory)
// stay read-only grants.
func unprotectWorkspace(s Spec, ms []Mount) []Mount {
	ws := s.Workspace
	return slices.DeleteFunc(slices.Clone(ms), func(m Mount) bool {
		if m.Dst == ws || !hostpath.Within(m.Dst, ws) {
			return false
		}
		switch m.Kind {
		case ROBind, RemountRO, PlaceholderDir, PlaceholderFile, Guard:
		default:
			return false
		}
		if m.Kind == ROBind && m.Src != m.Dst {
			return false
		}
		return slices.ContainsFunc(s.Protect, func(pr Protected) bool { return hostpath.Within(pr.Path, m.Dst) })
	})
}

// Access levels of a Landlock grant, ordered.
const (
	llNone = iota
	llRO
	llRW
	llDev
)

// llGrant is one path's access level; at is the index of the mount it
// comes from, since a later mount wins over an earlier one (bwrap's
// order, which Landlock's union of rights does not have).
type llGrant struct {
	path  string
	level int
	at    int
}

// landlockDevices are the device files a command may use (bwrap's
// fresh /dev has the same ones). /dev/shm is left out: it is the host's.
var landlockDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// landlockPolicy turns bwrap's layout into Landlock grants: binds at
// their own path become read-only or read-write grants, the fresh /proc
// the host's read-only, /dev its device files, /tmp the temp directory
// tmp. What bwrap would put elsewhere than its source (a scratch home,
// cache layers, sanitized copies) has no Landlock equivalent and is left
// out: absent, as the rest of the home. Masks and read-only remounts
// inside a grant are exceptions ([splitGrant]).
func landlockPolicy(ms []Mount, tmp, network string) confine.Landlock {
	var grants, excs []llGrant
	for i, m := range ms {
		switch m.Kind {
		case ROBind, Bind, DevBind:
			level := map[MountKind]int{ROBind: llRO, Bind: llRW, DevBind: llDev}[m.Kind]
			if m.Src == m.Dst {
				grants = append(grants, llGrant{m.Dst, level, i})
			} else {
				// What bwrap shows there instead (a scratch home, a
				// cache layer, a sanitized copy) cannot be shown: the
				// path itself gets nothing from earlier grants.
				level = llNone
			}
			// A bind inside an earlier one replaces what it held:
			// read-only there (a protected path) stays read-only.
			excs = append(excs, llGrant{m.Dst, min(level, llRW), i})
		case Proc:
			if m.Dst == "/proc" {
				grants = append(grants, llGrant{"/proc", llRO, i})
			} else {
				excs = append(excs, llGrant{m.Dst, llRO, i})
			}
		case Dev:
			for _, d := range landlockDevices {
				grants = append(grants, llGrant{d, llDev, i})
			}
		case Tmpfs:
			if m.Dst == "/tmp" {
				grants = append(grants, llGrant{tmp, llRW, i})
			}
			excs = append(excs, llGrant{m.Dst, llNone, i})
		case MaskDir, MaskFile:
			excs = append(excs, llGrant{m.Dst, llNone, i})
		case RemountRO, PlaceholderDir, PlaceholderFile:
			if m.Dst != "/" {
				excs = append(excs, llGrant{m.Dst, llRO, i})
			}
		}
	}
	var out confine.Landlock
	for _, g := range grants {
		later := slices.DeleteFunc(slices.Clone(excs), func(e llGrant) bool { return e.at <= g.at })
		for _, e := range splitGrant(g, later) {
			switch e.level {
			case llRO:
				out.RO = append(out.RO, e.path)
			case llRW:
				out.RW = append(out.RW, e.path)
			case llDev:
				out.Dev = append(out.Dev, e.path)
			}
		}
	}
	out.Tmpdir = tmp
	// Open and host share the host's network (no namespace to hold the
	// neighbourhood out under this backend; docs/confinement.md); off
	// and allow restrict TCP (the proxy's port under allow is added by
	// the caller).
	out.Net = network != NetworkOpen && network != NetworkHost
	return out
}

// splitGrant returns the grants that give g's hierarchy its level
// except at the exceptions below it, which get theirs. Landlock adds a
// hierarchy's rights to everything beneath and cannot take them away,
// so a directory above an exception gets at most read-only (nothing
// when a hidden path lies beneath) and each of its entries is granted
// on its own, recursively. Entries made after this (a new file in the
// workspace root, above .git/hooks) get only the parent's rights:
// that is the price (docs/confinement.md). Symbolic links are not
// followed: an entry that links elsewhere gets no grant of its own.
func splitGrant(g llGrant, excs []llGrant) []llGrant {
	for _, e := range excs {
		if e.path == g.path && e.level < g.level {
			g.level = e.level
		}
	}
	var below []llGrant
	hidden := false
	for _, e := range excs {
		if hostpath.Below(e.path, g.path) && e.level < g.level {
			below = append(below, e)
			hidden = hidden || e.level == llNone
		}
	}
	if len(below) == 0 {
		if g.level == llNone {
			return nil
		}
		return []llGrant{g}
	}
	var out []llGrant
	if !hidden && g.level > llNone {
		out = append(out, llGrant{g.path, min(g.level, llRO), g.at})
	}
	ents, err := os.ReadDir(g.path)
	if err != nil {
		return out
	}
	for _, ent := range ents {
		if ent.Type()&os.ModeSymlink != 0 {
			continue
		}
		out = append(out, splitGrant(llGrant{filepath.Join(g.path, ent.Name()), g.level, g.at}, below)...)
	}
	return slices.Clip(out)
}
