// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// goProxyDir writes a file:// module proxy holding example.com/m v1.0.0,
// whose Hello returns "orig".
func goProxyDir(t *testing.T, dir string) {
	t.Helper()
	v := filepath.Join(dir, "example.com", "m", "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/m\n\ngo 1.21\n"
	os.WriteFile(filepath.Join(v, "list"), []byte("v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(v, "v1.0.0.info"), []byte(`{"Version":"v1.0.0","Time":"2020-01-01T00:00:00Z"}`), 0o644)
	os.WriteFile(filepath.Join(v, "v1.0.0.mod"), []byte(mod), 0o644)
	f, err := os.Create(filepath.Join(v, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, data := range map[string]string{"go.mod": mod, "m.go": "package m\n\nfunc Hello() string { return \"orig\" }\n"} {
		w, _ := zw.Create("example.com/m@v1.0.0/" + name)
		w.Write([]byte(data))
	}
	zw.Close()
	f.Close()
}

// TestCachesCarryNoCode: what a sandboxed command writes at the paths of
// the host's Go module cache and npm cache never reaches them, so the
// host's next `go run` and `npx` run nothing the sandbox wrote; the
// sandbox still gets the modules the host has, without the network.
func TestCachesCarryNoCode(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not installed")
	}
	home, ws := fakeHome(t)
	// Go makes extracted modules read-only; fakeHome's RemoveAll needs
	// them writable.
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", home).Run() })
	goProxyDir(t, filepath.Join(home, "proxy"))
	modcache := filepath.Join(home, "go", "pkg", "mod")
	os.MkdirAll(filepath.Join(home, ".npm", "_npx"), 0o755)
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n\nrequire example.com/m v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n\nimport (\n\t\"os\"\n\n\t\"example.com/m\"\n)\n\nfunc main() { os.Stdout.WriteString(m.Hello() + \"\\n\") }\n"), 0o644)
	goEnv := []string{"GOSUMDB=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPATH=", "GOMODCACHE=", "GOENV=", "XDG_CONFIG_HOME=", "HOME=" + home}
	hostGo := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = ws
		cmd.Env = append(append(os.Environ(), goEnv...), "GOPROXY=file://"+filepath.Join(home, "proxy"), "GOCACHE="+filepath.Join(t.TempDir(), "gocache"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("host go %v: %v\n%s%s", args, err, out, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
	if got := hostGo("run", "."); got != "orig" {
		t.Fatalf("host go run: %q", got)
	}
	os.Remove(filepath.Join(ws, "go.sum"))
	hostFile := filepath.Join(modcache, "example.com", "m@v1.0.0", "m.go")

	goroot := filepath.Dir(filepath.Dir(goBin))
	s := specFor(t, ws, home, func(s *sandbox.Spec) { s.Read = append(s.Read, goroot) })
	env := append(append([]string{}, goEnv...), "GOPROXY=", "PATH="+filepath.Dir(goBin)+":/usr/bin:/bin")
	r := runConfined(t, b, s, runOpts{env: env}, `
		set -e
		# The host's module, from its download cache (no network here).
		go mod download example.com/m@v1.0.0
		f=$(go list -m -f '{{.Dir}}' example.com/m)/m.go
		test "$f" = "$1"
		chmod -R u+w "$(dirname "$f")"
		sed -i s/orig/evil/ "$f"
		mkdir -p ~/.npm/_npx/x && echo 'require("child_process")' > ~/.npm/_npx/x/index.js
		grep -c evil "$f"`, hostFile)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "1" {
		t.Fatalf("sandboxed go: %v", r)
	}
	if data, _ := os.ReadFile(hostFile); !strings.Contains(string(data), "orig") {
		t.Errorf("the host's module cache changed: %s", data)
	}
	if got := hostGo("run", "."); got != "orig" {
		t.Errorf("host go run after the sandbox: %q", got)
	}
	if _, err := os.Stat(filepath.Join(home, ".npm", "_npx", "x")); err == nil {
		t.Error("the sandbox wrote the host's ~/.npm/_npx")
	}

	t.Run("shared cache opt-in", func(t *testing.T) {
		s := s
		s.SharedCaches = []string{modcache}
		r := runConfined(t, b, s, runOpts{env: env}, `touch "$1"/shared-ok`, modcache)
		if r.code != 0 {
			t.Fatalf("shared cache not writable: %v", r)
		}
		if _, err := os.Stat(filepath.Join(modcache, "shared-ok")); err != nil {
			t.Error("shared cache write did not reach the host")
		}
	})
}

// cachesGoBuild is TestToolchainCaches/go build writes its cache.
func cachesGoBuild(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec, env []string) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not installed")
	}
	if err := os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package x\n\n// F has no imports, so that a cold cache compiles only this package.\nfunc F() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	goroot := filepath.Dir(filepath.Dir(goBin))
	s := base
	s.Read = append(s.Read, goroot)
	// The sandbox's own /tmp: the caller's TMPDIR is not visible inside.
	r := runConfined(t, b, s, runOpts{env: append(env, "PATH="+filepath.Dir(goBin)+":/usr/bin:/bin", "TMPDIR=/tmp")}, `go build . && go list -export -f '{{.Export}}' .`)
	if r.code != 0 {
		t.Fatalf("go build: %v", r)
	}
	// The package's compiled output is an entry of the cache at
	// ~/.cache/go-build as the sandbox sees it, which is the
	// workspace's layer on the host; the host's cache is untouched.
	// (A package without imports keeps a cold cache from compiling
	// the standard library.)
	export := strings.TrimSpace(r.stdout)
	layer := filepath.Join(sandbox.CacheLayerDir(home, ws), ".cache!go-build")
	if rel, ok := strings.CutPrefix(export, filepath.Join(home, ".cache/go-build")+"/"); !ok {
		t.Errorf("export data at %q, not in ~/.cache/go-build: %v", export, r)
	} else if _, err := os.Stat(filepath.Join(layer, rel)); err != nil {
		t.Errorf("cache entry not in the workspace's layer: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(home, ".cache/go-build")); len(ents) != 0 {
		t.Error("the sandbox wrote the host's ~/.cache/go-build")
	}
}
