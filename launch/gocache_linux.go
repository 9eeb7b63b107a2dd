// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
)

// serveGoCache makes prog the worker's Go build cache program and
// serves, when its build cache gets a layer, the host's build cache by
// exact action ID on gocache.sock in the session directory, bound into
// the worker's sandbox (package gocacheprog; docs/confinement.md,
// "Caches"). Failing, the layer alone serves: a cold first build,
// nothing else changes.
func (s *Session) serveGoCache(spec *sandbox.Spec, prog string) {
	spec.GoCacheProg = prog
	dir := sandbox.GoBuildCacheServed(*spec)
	if dir == "" {
		return
	}
	sock := filepath.Join(s.Dir, "gocache.sock")
	if _, stop, err := gocacheprog.Listen(sock, dir); err == nil {
		s.gocache, spec.GoCacheSocket = stop, sock
	}
}

// stopServers stops the session's egress proxy and Go build cache
// server, those it has.
func (s *Session) stopServers() {
	if s.egress != nil {
		s.egress()
	}
	if s.gocache != nil {
		s.gocache()
	}
}
