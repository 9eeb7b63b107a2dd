// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goCacheScript builds the workspace's package inside and reports the
// compiles and the cache program the go command uses.
const goCacheScript = `go build -x . 2>/tmp/x || { cat /tmp/x; exit 1; }
echo "compiles=$(grep -c '/compile ' /tmp/x)"
echo "prog=$(go env GOCACHEPROG)"`

// TestGoBuildCacheWarm (issue 31, finding 6): a new workspace's first
// Go build under `run` and in a session compiles nothing the host
// already compiled (the host's build cache read through the cache
// program), and the host's build cache is left as it was, as root and
// as nobody. Control: the host's own build compiled and wrote it.
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
		before := treeListing(t, hostCache)
		for _, where := range []string{"run", "session"} {
			var stdout, stderr string
			var code int
			if where == "run" {
				stdout, stderr, code = e.run([]string{"GOTOOLCHAIN=local", "GOFLAGS="}, "sh", "-c", goCacheScript)
			} else {
				stdout, stderr, code = e.launch("exec", []string{"GOTOOLCHAIN=local", "GOFLAGS="}, "/bin/sh", "-c", goCacheScript)
			}
			if code != 0 || !strings.Contains(stdout, "compiles=0\n") || !strings.Contains(stdout, "__gocacheprog") {
				t.Errorf("%s: exit %d, want no compile through the cache program\nstdout:\n%s\nstderr:\n%s", where, code, stdout, stderr)
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
