// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// TestGoCacheProgMounts: the host's Go build cache is never bound into
// the sandbox when it gets a layer (no mount has it as source); with a
// layer and a program, the program and the launcher's socket are bound
// read-only and the go env file names the program; shared or without a
// layer it is as before.
func TestGoCacheProgMounts(t *testing.T) {
	t.Parallel()
	const home, gb, sock = "/home/u", "/home/u/.cache/go-build", "/tmp/ls-gocache/gocache.sock"
	fsys := newFakeFS(map[string]string{gb: "dir", "/opt/ls/lite-sandbox-shim": "file", sock: "file"})
	base := Spec{Workspace: "/home/u/p", Home: home, Caches: []string{gb}, CacheLayer: "/home/u/.cache/lite-sandbox/caches/x",
		GoCacheProg: "/opt/ls/lite-sandbox-shim", GoCacheSocket: sock}
	for _, tc := range []struct {
		name         string
		adjust       func(*Spec)
		prog, socket bool
	}{
		{"layer, program and socket", func(*Spec) {}, true, true},
		{"no socket: the layer alone", func(s *Spec) { s.GoCacheSocket = "" }, true, false},
		{"no program", func(s *Spec) { s.GoCacheProg = "" }, false, false},
		{"no layer", func(s *Spec) { s.CacheLayer = "" }, false, false},
		{"home with a quote", func(s *Spec) { s.Home = "/home/o'u" }, false, false},
	} {
		s := base
		tc.adjust(&s)
		ms, err := cacheMounts(s, fsys)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// Without a layer (it could not be made) caches are read-only as
		// they were before the cache program: a limit, docs/limits.md.
		if i := slices.IndexFunc(ms, func(m Mount) bool { return m.Src == gb || strings.HasPrefix(m.Src, gb+"/") }); i >= 0 && s.CacheLayer != "" {
			t.Errorf("%s: the host's build cache is bound: %v", tc.name, ms[i])
		}
		prog := slices.IndexFunc(ms, func(m Mount) bool { return m.Src == base.GoCacheProg })
		so := slices.IndexFunc(ms, func(m Mount) bool { return m.Src == sock })
		if (prog >= 0) != tc.prog || (so >= 0) != tc.socket {
			t.Errorf("%s: mounts %v", tc.name, ms)
			continue
		}
		if prog >= 0 && ms[prog].Kind != ROBind || so >= 0 && ms[so].Kind != ROBind {
			t.Errorf("%s: the program or the socket is not read-only: %v", tc.name, ms)
		}
		if tc.prog && goEnvFile(s, fsys) != goProgEnvName {
			t.Errorf("%s: go env file %q", tc.name, goEnvFile(s, fsys))
		}
	}
	// Shared (the user's opt-in): bound read-write as it is, no program.
	s := base
	s.SharedCaches = []string{gb}
	ms, _ := cacheMounts(s, fsys)
	if slices.ContainsFunc(ms, func(m Mount) bool { return m.Src == base.GoCacheProg || m.Src == sock }) {
		t.Errorf("shared: %v", ms)
	}
}

func TestGoCacheProgSetting(t *testing.T) {
	t.Parallel()
	s := Spec{Home: "/home/a b"}
	got := goCacheProgSetting(s, "/home/a b/.cache/go-build")
	want := "GOCACHEPROG='/home/a b/.cache/lite-sandbox/gocacheprog' __gocacheprog '/home/a b/.cache/lite-sandbox/gocache.sock' '/home/a b/.cache/go-build'\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := goCacheProgSetting(Spec{Home: "/home/x"}, `/home/x/"go-build`); got != "" {
		t.Errorf("a path the go command cannot split: %q", got)
	}
}
