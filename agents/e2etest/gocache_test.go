// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
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
)

// goCacheScript builds the workspace's package inside and reports the
// compiles and the cache program the go command uses; then it tries the
// host's cache: the file of a host entry ($1) by its path, a listing
// for its action ID ($2), and the launcher's socket ($4, by the Python
// program $3) asked with no ID, a path, the host's cached test output's
// exact ID ($2) and a compiled package's ($5, the control).
const goCacheScript = `go build -x . 2>/tmp/x || { cat /tmp/x; exit 1; }
echo "compiles=$(grep -c '/compile ' /tmp/x)"
echo "prog=$(go env GOCACHEPROG)"
cat "$1" >/dev/null 2>&1 && echo "read-host-entry" || echo "host-entry-absent"
ls -R ~/.cache 2>/dev/null | grep -q "$2" && echo "listed-host-entry"
/usr/bin/python3 -c "$3" "$4" '' 'get \n' 'get ../../etc/passwd\n' "get $2\n" "get $5\n"`

// askSocket asks the cache socket argv[1] each request argv[2:] (one
// connection each, "\n" written as a newline) and prints each answer's
// first word.
const askSocket = `import socket, sys
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
// `go test` caches a test's output (text, the go command's "cache" package's
// format; a real `go test` would compile the testing package cold, for
// minutes on a loaded machine) and returns its action ID and file.
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

// packageEntry returns the action ID of a compiled package (a Go
// archive) in the host's build cache dir.
func packageEntry(t *testing.T, dir string) string {
	t.Helper()
	as, _ := filepath.Glob(filepath.Join(dir, "*", "*-a"))
	for _, a := range as {
		line, _ := os.ReadFile(a)
		if f := strings.Fields(string(line)); len(f) == 5 && len(f[2]) > 2 {
			if b, err := os.ReadFile(filepath.Join(dir, f[2][:2], f[2]+"-d")); err == nil && strings.HasPrefix(string(b), "!<arch>\n") {
				return f[1]
			}
		}
	}
	t.Fatalf("no compiled package in %s", dir)
	return ""
}

// TestGoBuildCacheWarm (issue 31, finding 6): a new workspace's first
// Go build under `run` and in a session compiles nothing the host
// already compiled (the host's compiled packages fetched by exact action
// ID from the launcher's socket into the workspace's layer), and the
// host's build cache is left as it was, as root and as nobody. Inside,
// the host's cache cannot be read or listed: a host entry's file is
// absent at its path, the socket refuses a request without an action ID
// or with a path and does not serve the host's cached test output even
// by its exact ID, while it serves a compiled package by its ID (the
// control). Control: the host's own build compiled and wrote it.
func TestGoBuildCacheWarm(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		e.setPath(filepath.Dir(goBin))
		e.write("go.mod", "module example.com/warm\n\ngo 1.21\n")
		// No imports: the host's cold build compiles one package.
		e.write("warm.go", "package warm\n\n// F is compiled once, by the host.\nfunc F() int { return 1 }\n")
		e.chownTree()
		hostCache := filepath.Join(e.home, ".cache", "go-build")
		cmd := exec.Command(goBin, "build", "-x", ".")
		cmd.Dir, cmd.Env = e.ws, append(append([]string{}, e.vars...), "GOTOOLCHAIN=local", "GOFLAGS=")
		e.credential(cmd)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "/compile ") {
			t.Fatalf("control: the host's build: %v\n%s", err, out)
		}
		testAction, testOut := plantTestOutput(t, hostCache)
		pkgAction := packageEntry(t, hostCache)
		before := treeListing(t, hostCache)
		sock := filepath.Join(e.home, ".cache/lite-sandbox/gocache.sock")
		args := []string{"-c", goCacheScript, "sh", testOut, testAction, askSocket, sock, pkgAction}
		for _, where := range []string{"run", "session"} {
			// Each path's build is a first build: a new, empty layer.
			layer := sandbox.CacheLayerDir(e.home, e.ws)
			exec.Command("chmod", "-R", "u+w", layer).Run()
			if err := os.RemoveAll(layer); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr string
			var code int
			if where == "run" {
				stdout, stderr, code = e.run([]string{"GOTOOLCHAIN=local", "GOFLAGS="}, append([]string{"sh"}, args...)...)
			} else {
				stdout, stderr, code = e.launch("exec", []string{"GOTOOLCHAIN=local", "GOFLAGS="}, append([]string{"/bin/sh"}, args...)...)
			}
			if code != 0 || !strings.Contains(stdout, "compiles=0\n") || !strings.Contains(stdout, "__gocacheprog") {
				t.Errorf("%s: exit %d, want no compile through the cache program\nstdout:\n%s\nstderr:\n%s", where, code, stdout, stderr)
			}
			if !strings.Contains(stdout, "host-entry-absent\nanswer=error:\nanswer=error:\nanswer=error:\nanswer=miss\nanswer=hit\n") {
				t.Errorf("%s: the host's cache seen from inside\nstdout:\n%s\nstderr:\n%s", where, stdout, stderr)
			}
			if after := treeListing(t, hostCache); after != before {
				t.Errorf("%s: the host's build cache changed", where)
			}
		}
	})
}

// treeListing is every file below dir with its size and mtime.
func treeListing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
