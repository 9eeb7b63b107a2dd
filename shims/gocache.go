// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
)

// goCacheDirPrefix names the per-command Go build cache servers' socket
// directories in the temporary directory (removed as egress's are).
const goCacheDirPrefix = "lite-sandbox-gocache-"

// serveGoCache starts, for a sandbox of spec whose Go build cache gets
// a layer, the host side of its cache program: the host's build cache
// served by exact action ID on a socket bound into the sandbox
// (gocacheprog.Host; docs/confinement.md, "Caches"). It sets
// spec.GoCacheSocket; stop ends it. Failing, the layer alone serves (a
// cold first build, nothing else changes).
func serveGoCache(spec *sandbox.Spec) (stop func()) {
	dir := sandbox.GoBuildCacheServed(*spec)
	if dir == "" {
		return func() {}
	}
	// Best effort, beside the command's start (every `run` gets here).
	go removeStaleDirs(os.TempDir(), goCacheDirPrefix)
	sd, err := os.MkdirTemp("", goCacheDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return func() {}
	}
	sock := filepath.Join(sd, "gocache.sock")
	_, end, err := gocacheprog.Listen(sock, dir)
	if err != nil {
		os.RemoveAll(sd)
		return func() {}
	}
	spec.GoCacheSocket = sock
	return func() { end(); os.RemoveAll(sd) }
}
