// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/gocacheprog"
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

// hostEntry finds, in the host's Go build cache dir, an entry whose
// output satisfies match, and returns its action ID (hex) and the path
// of its output file.
func hostEntry(t *testing.T, dir string, match func([]byte) bool) (action, output string) {
	t.Helper()
	as, _ := filepath.Glob(filepath.Join(dir, "*", "*-a"))
	for _, a := range as {
		line, err := os.ReadFile(a)
		f := strings.Fields(string(line))
		if err != nil || len(f) != 5 {
			continue
		}
		out := filepath.Join(dir, f[2][:2], f[2]+"-d")
		if body, err := os.ReadFile(out); err == nil && match(body) {
			return f[1], out
		}
	}
	t.Fatalf("no such entry in the host's build cache %s", dir)
	return "", ""
}

// askScript asks the cache socket $1 each request $2... (one connection
// each, "\n" written as such) and prints each answer's first word.
const askScript = `import socket, sys
for req in sys.argv[2:]:
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(req.replace("\\n", "\n").encode())
    s.shutdown(socket.SHUT_WR)
    d = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        d += b
    print("answer=" + d.split(b"\n")[0].split(b" ")[0].decode())`

// plantTestOutput writes into the host's build cache dir an entry as
// `go test` caches a test's output (plain text, in the go command's
// format: the go command's "cache" package) and returns its action ID (hex) and
// output file. A real `go test` would compile the testing package
// cold, minutes on a loaded machine; the server tells entries apart by
// their output alone, so the planted one is what it would see.
func plantTestOutput(t *testing.T, dir string) (action, output string) {
	t.Helper()
	body := []byte("=== RUN   TestF\nhost-only-output secret\n--- PASS: TestF (0.00s)\nPASS\n")
	a, o := sha256.Sum256([]byte("a test's action")), sha256.Sum256(body)
	action, out := hex.EncodeToString(a[:]), hex.EncodeToString(o[:])
	output = filepath.Join(dir, out[:2], out+"-d")
	line := fmt.Sprintf("v1 %s %s %20d %20d\n", action, out, len(body), time.Now().UnixNano())
	for p, data := range map[string][]byte{output: body, filepath.Join(dir, action[:2], action+"-a"): []byte(line)} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return action, output
}

// TestGoBuildCacheFromHost (issue 31, finding 6): a new workspace's first
// Go build compiles nothing the host already compiled: the host's
// compiled packages come, by exact action ID, from the launcher's server
// (here the test, as `run` and a session's launcher do) into the
// workspace's layer. The host's cache stays unseen and unchanged: a host
// entry's file is absent at its path inside, a request without an
// action ID (or a path) is refused and a cached `go test` output of the
// host is not served even by its exact ID, while the same
// socket does serve a compiled package by its ID (the control); the
// host's listing and mtimes are as before, where the host's own build
// did write it.
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
	hostBuild(t, goBin, ws, goEnv)
	testAction, testOut := plantTestOutput(t, hostCache)
	before := cacheListing(t, hostCache)
	pkgAction, _ := hostEntry(t, hostCache, func(b []byte) bool { return bytes.HasPrefix(b, []byte("!<arch>\n")) })

	sock := filepath.Join(home, "gocache.sock")
	srv, stop, err := gocacheprog.Listen(sock, hostCache)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	s := specFor(t, ws, home, func(s *sandbox.Spec) {
		s.Read = append(s.Read, filepath.Dir(filepath.Dir(goBin)))
		s.GoCacheProg, s.GoCacheSocket = exe, sock
	})
	// TMPDIR: the sandbox's own /tmp, whatever the test's is.
	env := append(append([]string{}, goEnv...), "PATH="+filepath.Dir(goBin)+":/usr/bin:/bin", "TMPDIR=/tmp")
	inside := filepath.Join(home, ".cache/lite-sandbox/gocache.sock")
	r := runConfined(t, b, s, runOpts{env: env}, `
		go build -x . 2>/tmp/x || { cat /tmp/x; exit 1; }
		echo "compiles=$(grep -c '/compile ' /tmp/x)"
		echo "export=$(go list -export -f '{{.Export}}' .)"
		cat "$1" >/dev/null 2>&1 && echo "read-host-entry" || echo "host-entry-absent"
		ls -R ~/.cache 2>/dev/null | grep -q "$2" && echo "listed-host-entry"
		# -I: the test binary (the cache program inside) holds the words.
		grep -rqI host-only-output ~/.cache ~/.config 2>/dev/null && echo "found-host-output"
		/usr/bin/python3 -c "$3" "$4" '' 'get \n' 'get ../../etc/passwd\n' "get $2\n" "get $5\n"`,
		testOut, testAction, askScript, inside, pkgAction)
	if r.code != 0 {
		t.Fatalf("sandboxed go: %v", r)
	}
	want := []string{"compiles=0", "host-entry-absent",
		"answer=error:\nanswer=error:\nanswer=error:\nanswer=miss\nanswer=hit\n"}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("want %q in the sandbox's output: %v", w, r)
		}
	}
	for _, bad := range []string{"read-host-entry", "listed-host-entry", "found-host-output", "export=" + hostCache + "/" + pkgAction[:2]} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("%q in the sandbox's output: %v", bad, r)
		}
	}
	layer := filepath.Join(sandbox.CacheLayerDir(home, ws), ".cache!go-build")
	if rel, ok := strings.CutPrefix(lineWith(r.stdout, "export="), hostCache+"/"); !ok {
		t.Errorf("export data not below GOCACHE: %v", r)
	} else if _, err := os.Stat(filepath.Join(layer, rel)); err != nil {
		t.Errorf("the fetched package is not in the workspace's layer: %v", err)
	}
	if srv.Served.Load() == 0 {
		t.Error("the launcher's server served nothing")
	}
	if after := cacheListing(t, hostCache); after != before {
		t.Errorf("the sandbox changed the host's build cache:\n%s\nwas\n%s", after, before)
	}
	goBuildChanged(t, b, s, env, ws, layer, hostCache, before)
}

// hostBuild builds ws on the host; the control: it compiled.
func hostBuild(t *testing.T, goBin, ws string, env []string) {
	t.Helper()
	host := exec.Command(goBin, "build", "-x", ".")
	host.Dir, host.Env = ws, append(os.Environ(), env...)
	if out, err := host.CombinedOutput(); err != nil || !strings.Contains(string(out), "/compile ") {
		t.Fatalf("control: the host's go build compiled nothing: %v\n%s", err, out)
	}
}

// lineWith returns the rest of the first line of out starting with prefix.
func lineWith(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest
		}
	}
	return ""
}

// goBuildChanged: what the host never built is compiled, into the
// layer only.
func goBuildChanged(t *testing.T, b sandbox.Backend, s sandbox.Spec, env []string, ws, layer, hostCache, before string) {
	t.Helper()
	os.WriteFile(filepath.Join(ws, "x.go"), []byte("package x\n\nfunc F() int { return 2 }\n"), 0o644)
	r := runConfined(t, b, s, runOpts{env: env}, `set -e; go build -x . 2>/tmp/x; grep -c '/compile ' /tmp/x; go list -export -f '{{.Export}}' .`)
	lines := strings.Fields(r.stdout)
	if r.code != 0 || len(lines) != 2 || lines[0] != "1" {
		t.Fatalf("sandboxed go after a change: %v", r)
	}
	if rel, ok := strings.CutPrefix(lines[1], hostCache+"/"); !ok {
		t.Errorf("export data %q not in the layer", lines[1])
	} else if _, err := os.Stat(filepath.Join(layer, rel)); err != nil {
		t.Errorf("the new entry is not in the workspace's layer: %v", err)
	}
	if after := cacheListing(t, hostCache); after != before {
		t.Error("the sandbox changed the host's build cache")
	}
}
