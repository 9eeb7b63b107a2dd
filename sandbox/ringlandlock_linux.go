// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// prepareRingLandlock is [PrepareRing] for the Landlock backend (#28):
// the agent process confines itself (the shim's `__confine --landlock`)
// before it executes, with no namespace and no privilege. The grants are
// the ring's own layout ([RingLayout]) turned into Landlock rules as for
// commands ([landlockPolicy]): what bwrap binds at its own path is
// granted there, what it would show elsewhere than its source (the
// scratch home, the state layers' scratches, the sanitized
// ~/.gitconfig, the shim over every shell and git) is not granted at
// all. So the real home is absent but for the state entries, data
// directories and credentials the ring binds; and the host's shells and
// gits are neither readable nor executable in the ring: a direct exec of
// /bin/bash fails (EACCES), while every other file of the system
// directories is granted on its own ([splitGrant]), docs/ring.md "The
// Landlock ring". Network: TCP connect only to r.ConnectTCP (the agent's
// proxy and agent.host_ports), nothing bound; UDP below Landlock ABI 10
// is not filtered. The workspace's protected paths are held by the
// launcher's guard, as for commands ([guardLandlock]).
func prepareRingLandlock(r RingSpec, argv []string) (*Prepared, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, &SetupError{Op: "argv", Err: errors.New("no program to run")}
	}
	DetectHost(&r.Command)
	// No writable layer over a cache (no mount): the caches not shared
	// are read-only, as for the commands under this backend.
	r.Command.CacheLayer = ""
	mounts, err := RingLayout(r, OSFS{})
	if err != nil {
		return nil, &SetupError{Op: "ring layout", Err: err}
	}
	mounts = unprotectWorkspace(r.Command, mounts)
	ll := ringLandlockPolicy(r, mounts)
	args := append([]string{r.Exe, confine.Command}, ll.Args()...)
	args = append(append(args, "--"), argv...)
	p := &Prepared{Path: r.Exe, Args: args, Mounts: mounts}
	if err := guardLandlock(r.Command, p); err != nil {
		return nil, err
	}
	return p, nil
}

// ringLandlockPolicy turns the ring's mounts (after
// [unprotectWorkspace]) into its Landlock policy: [landlockPolicy]'s
// grants, the kept data files read-only, the session's tmp as TMPDIR,
// and TCP connect to r.ConnectTCP only.
func ringLandlockPolicy(r RingSpec, mounts []Mount) confine.Landlock {
	ll := landlockPolicy(mounts, r.Tmp, NetworkOff)
	ll.RO = append(ll.RO, keptFiles(r)...)
	ll.RW = append(ll.RW, r.Tmp)
	ll.Tmpdir = r.Tmp
	ll.Broker = true
	ll.Net = true
	ll.ConnectTCP = slices.Clone(r.ConnectTCP)
	return ll
}

// keptFiles are the state layers' entries that bwrap's ring shows as
// copies in the layer's scratch (the kept data files: history, the
// login's credentials, Codex's SQLite state). Without a mount there is
// no scratch at their path: under the Landlock ring they are read-only
// (the agent logs in with them; what it would write there is not kept,
// docs/ring.md "The Landlock ring"). A writable path keeps its grant.
func keptFiles(r RingSpec) []string {
	var out []string
	for _, l := range r.Layers {
		ents, err := os.ReadDir(l.Dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			p := filepath.Join(l.Dir, e.Name())
			if slices.Contains(l.Entries, e.Name()) || writable(r, p) || !e.Type().IsRegular() {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}
