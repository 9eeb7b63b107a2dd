// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// cacheListing is every file below dir with its size and mtime.
func cacheListing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}

// TestGoBuildCacheFromHost: a new workspace's first Go build under the
// sandbox gets what the host already compiled from the host's build
// cache (no compile in `go build -x`; the export data is the host's
// entry, seen read-only) and writes nothing there: its listing and
// mtimes are unchanged, while the host's own build did write it (the
// control). A file planted at the host cache's path inside is refused
// (read-only), while the same write to the workspace's layer succeeds;
// a package the host never built is compiled into the layer.
func TestGoBuildCacheFromHost(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not installed")
	}
	home, ws := fakeHome(t)
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", home).Run() })
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/x\n\ngo 1.21\n"), 0o644)
	// No imports: a cold cache compiles only this package.
	os.WriteFile(filepath.Join(ws, "x.go"), []byte("package x\n\nfunc F() int { return 1 }\n"), 0o644)
	goEnv := []string{"GOTOOLCHAIN=local", "GOFLAGS=", "GOPATH=", "GOCACHE=", "GOCACHEPROG=", "GOENV=", "XDG_CONFIG_HOME=", "XDG_CACHE_HOME=", "GOTELEMETRY=off", "HOME=" + home}
	hostCache := filepath.Join(home, ".cache", "go-build")
	if cacheListing(t, hostCache) != "" {
		t.Fatal("the host's build cache exists before the host's build")
	}
	host := exec.Command(goBin, "build", ".")
	host.Dir, host.Env = ws, append(os.Environ(), goEnv...)
	if out, err := host.CombinedOutput(); err != nil {
		t.Fatalf("host go build: %v\n%s", err, out)
	}
	before := cacheListing(t, hostCache)
	if before == "" {
		t.Fatal("control: the host's build wrote nothing to its cache")
	}

	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	s := specFor(t, ws, home, func(s *sandbox.Spec) {
		s.Read = append(s.Read, filepath.Dir(filepath.Dir(goBin)))
		s.GoCacheProg = exe
	})
	// TMPDIR: the sandbox's own /tmp, whatever the test's is.
	env := append(append([]string{}, goEnv...), "PATH="+filepath.Dir(goBin)+":/usr/bin:/bin", "TMPDIR=/tmp")
	hostView := filepath.Join(home, ".cache/lite-sandbox/go-build-host")
	r := runConfined(t, b, s, runOpts{env: env}, `
		set -e
		go build -x . 2>/tmp/x
		grep -c '/compile ' /tmp/x || true
		go list -export -f '{{.Export}}' .
		touch "$1"/planted 2>/dev/null && echo planted-host
		touch ~/.cache/go-build/planted && echo planted-layer`, hostView)
	lines := strings.Fields(r.stdout)
	if r.code != 0 || len(lines) != 3 {
		t.Fatalf("sandboxed go: %v", r)
	}
	if lines[0] != "0" {
		t.Errorf("compiled %s packages the host had built: %v", lines[0], r)
	}
	if !strings.HasPrefix(lines[1], hostView+"/") {
		t.Errorf("export data %q not served from the host's cache", lines[1])
	}
	if lines[2] != "planted-layer" {
		t.Errorf("writes: %q, want the layer's only", lines[2])
	}
	if after := cacheListing(t, hostCache); after != before {
		t.Errorf("the sandbox changed the host's build cache:\n%s\nwas\n%s", after, before)
	}

	// What the host never built is compiled, into the layer only.
	os.WriteFile(filepath.Join(ws, "x.go"), []byte("package x\n\nfunc F() int { return 2 }\n"), 0o644)
	r = runConfined(t, b, s, runOpts{env: env}, `set -e; go build -x . 2>/tmp/x; grep -c '/compile ' /tmp/x; go list -export -f '{{.Export}}' .`)
	lines = strings.Fields(r.stdout)
	if r.code != 0 || len(lines) != 2 || lines[0] != "1" {
		t.Fatalf("sandboxed go after a change: %v", r)
	}
	layer := filepath.Join(sandbox.CacheLayerDir(home, ws), ".cache!go-build")
	if rel, ok := strings.CutPrefix(lines[1], hostCache+"/"); !ok {
		t.Errorf("export data %q not in the layer", lines[1])
	} else if _, err := os.Stat(filepath.Join(layer, rel)); err != nil {
		t.Errorf("the new entry is not in the workspace's layer: %v", err)
	}
	if after := cacheListing(t, hostCache); after != before {
		t.Error("the sandbox changed the host's build cache")
	}
}
