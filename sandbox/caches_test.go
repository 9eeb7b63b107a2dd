// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"slices"
	"testing"
)

// TestGoCacheProgMounts: the host's Go build cache is bound read-only
// (never read-write) beside the layer, with the program and the go env
// file that names it, only when the build cache gets a layer and there
// is a program; shared or without a layer it is as before.
func TestGoCacheProgMounts(t *testing.T) {
	t.Parallel()
	const home, gb = "/home/u", "/home/u/.cache/go-build"
	fsys := newFakeFS(map[string]string{gb: "dir", "/opt/ls/lite-sandbox-shim": "file"})
	base := Spec{Workspace: "/home/u/p", Home: home, Caches: []string{gb}, CacheLayer: "/home/u/.cache/lite-sandbox/caches/x", GoCacheProg: "/opt/ls/lite-sandbox-shim"}
	for _, tc := range []struct {
		name   string
		adjust func(*Spec)
		want   bool
	}{
		{"layer and program", func(*Spec) {}, true},
		{"no program", func(s *Spec) { s.GoCacheProg = "" }, false},
		{"shared", func(s *Spec) { s.SharedCaches = []string{gb} }, false},
		{"no layer", func(s *Spec) { s.CacheLayer = "" }, false},
		{"home with a quote", func(s *Spec) { s.Home = "/home/o'u" }, false},
	} {
		s := base
		tc.adjust(&s)
		ms, err := cacheMounts(s, fsys)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		host := slices.IndexFunc(ms, func(m Mount) bool { return m.Src == gb && m.Dst != gb })
		prog := slices.IndexFunc(ms, func(m Mount) bool { return m.Src == base.GoCacheProg })
		if got := host >= 0 && prog >= 0; got != tc.want {
			t.Errorf("%s: mounts %v", tc.name, ms)
			continue
		}
		if host >= 0 && (ms[host].Kind != ROBind || ms[prog].Kind != ROBind) {
			t.Errorf("%s: the host's cache or the program is not read-only: %v", tc.name, ms)
		}
		if tc.want && goEnvFile(s, fsys) != goProgEnvName {
			t.Errorf("%s: go env file %q", tc.name, goEnvFile(s, fsys))
		}
	}
}

func TestGoCacheProgSetting(t *testing.T) {
	t.Parallel()
	s := Spec{Home: "/home/a b"}
	got := goCacheProgSetting(s, "/home/a b/.cache/go-build")
	want := "GOCACHEPROG='/home/a b/.cache/lite-sandbox/gocacheprog' __gocacheprog '/home/a b/.cache/lite-sandbox/go-build-host' '/home/a b/.cache/go-build'\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := goCacheProgSetting(Spec{Home: "/home/x"}, `/home/x/"go-build`); got != "" {
		t.Errorf("a path the go command cannot split: %q", got)
	}
}
