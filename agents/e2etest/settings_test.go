// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// settingsScript reports, inside the command sandbox, the user's Go
// settings (and builds a module whose dependency only the user's
// GOPROXY, GONOPROXY and GOPRIVATE settings can fetch: without them go
// would ask proxy.golang.org and the checksum database), npm's registry and what the
// sandbox's ~/.npmrc holds, the build variables, and a make run that
// uses CC and CFLAGS. The npmrc is read by node through $HOME: the
// validator refuses a literal ~/.npmrc (a denied path), the OS sandbox
// decides what is there.
const settingsScript = `echo "GOPRIVATE=$(go env GOPRIVATE)"
echo "GONOPROXY=$(go env GONOPROXY)"
echo "GOFLAGS=$(go env GOFLAGS)"
echo "GOPROXY=$(go env GOPROXY)"
go build ./... && echo go-build-ok
echo "registry=$(npm config get registry)"
node -e 'process.stdout.write("npmrc<<" + require("fs").readFileSync(process.env.HOME + "/.npmrc", "utf8") + ">>\n")'
echo "CC=$CC|CFLAGS=$CFLAGS|MAKEFLAGS=$MAKEFLAGS|GH=${GITHUB_TOKEN:-absent}|PIP=$PIP_INDEX_URL"
make -s -C c hello >/dev/null && ./c/hello && rm -f c/hello
echo settings-done`

// TestUserSettingsInside (issue 31, finding 2): the settings a user made
// with go env -w (GOPRIVATE, GONOPROXY, GOFLAGS, a GOPROXY with a
// credential), the registry of ~/.npmrc and exported build variables
// (CC, CFLAGS, MAKEFLAGS) apply to a command under `run` and in a
// session, as root and as nobody; the npm token and GITHUB_TOKEN, both in
// the caller's reach (controls), and the GOPROXY and PIP_INDEX_URL
// credentials do not get in. The module's dependency lies in a file://
// proxy in the workspace, so nothing leaves the machine.
func TestUserSettingsInside(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	for _, tool := range []string{"npm", "node", "make", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		e.setPath(filepath.Dir(goBin))
		settingsWorld(t, e, goBin)
		vars := []string{"CC=cc", "CFLAGS=-DANSWER=42", "MAKEFLAGS=-s", "GITHUB_TOKEN=CANARY-GH",
			"PIP_INDEX_URL=https://me:CANARY-PIP@pypi.corp.example/simple"}
		// Controls: the secrets are in the host's files and the caller's
		// environment.
		if b, _ := os.ReadFile(filepath.Join(e.home, ".npmrc")); !bytes.Contains(b, []byte("CANARY-NPM")) {
			t.Fatalf("the host's ~/.npmrc lacks the token: %s", b)
		}
		if b, _ := os.ReadFile(filepath.Join(e.home, ".config", "go", "env")); !bytes.Contains(b, []byte("CANARY-GO")) || !bytes.Contains(b, []byte("GOPRIVATE=corp.example")) {
			t.Fatalf("go env -w wrote no GOPRIVATE or credential: %s", b)
		}
		out, errs, code := e.run(vars, "sh", "-c", settingsScript)
		checkSettings(t, e, "run", out, errs, code)
		out, errs, code = e.launch("exec", vars, "/bin/sh", "-c", settingsScript)
		checkSettings(t, e, "session", out, errs, code)
	})
}

// checkSettings checks the report of settingsScript.
func checkSettings(t *testing.T, e *env, where, out, errs string, code int) {
	t.Helper()
	if code != 0 || !strings.Contains(out, "settings-done") {
		t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", where, code, out, errs)
	}
	for _, want := range []string{
		"GOPRIVATE=corp.example\n",
		"GONOPROXY=none\n",
		"GOFLAGS=-mod=mod -modcacherw\n",
		"|file://" + filepath.Join(e.ws, ".proxy"),
		"go-build-ok\n",
		"registry=http://127.0.0.1:9/npm-corp/\n",
		"fund=false",
		"CC=cc|CFLAGS=-DANSWER=42|MAKEFLAGS=-s|GH=absent|PIP=https://pypi.corp.example/simple\n",
		"answer=42\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: the output lacks %q\nstdout:\n%s\nstderr:\n%s", where, want, out, errs)
		}
	}
	for _, secret := range []string{"CANARY", "_authToken", "me:"} {
		if strings.Contains(out, secret) || strings.Contains(errs, secret) {
			t.Errorf("%s: %q reached the sandbox\nstdout:\n%s\nstderr:\n%s", where, secret, out, errs)
		}
	}
}

// settingsWorld writes the user's settings as the user would: go env -w
// run on the host (as e's user), ~/.npmrc with a registry and a token,
// and a workspace with a Go module whose dependency corp.example/dep
// comes from a file:// proxy in the workspace, and a C program.
func settingsWorld(t *testing.T, e *env, goBin string) {
	t.Helper()
	proxy := filepath.Join(e.ws, ".proxy")
	writeModule(t, proxy, "corp.example/dep", "package dep\n\nconst Answer = 42\n")
	e.write("go.mod", "module corp.example/app\n\ngo 1.21\n\nrequire corp.example/dep v1.0.0\n")
	// A library that imports nothing of the standard library: building
	// it needs the dependency from the proxy, and no cold build of the
	// runtime (minutes on a loaded machine).
	e.write("app.go", "package app\n\nimport \"corp.example/dep\"\n\n// Answer is the dependency's.\nconst Answer = dep.Answer\n")
	e.write("c/hello.c", "#include <stdio.h>\nint main(void) { printf(\"answer=%d\\n\", ANSWER); return 0; }\n")
	e.write("~/.npmrc", "registry=http://127.0.0.1:9/npm-corp/\n//127.0.0.1:9/npm-corp/:_authToken=CANARY-NPM\nfund=false\n")
	e.chownTree()
	// A proxy with a credential first ("|": on its failure go tries the
	// next), then the file proxy.
	cmd := exec.Command(goBin, "env", "-w", "GOPRIVATE=corp.example", "GONOPROXY=none",
		"GOFLAGS=-mod=mod -modcacherw", "GOTOOLCHAIN=local",
		"GOPROXY=https://me:CANARY-GO@127.0.0.1:9|file://"+proxy)
	cmd.Dir = e.ws
	cmd.Env = e.vars
	e.credential(cmd)
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go env -w: %v\n%s", err, o)
	}
}

// writeModule writes module mod v1.0.0 with one file dep.go into a
// file:// module proxy at dir.
func writeModule(t *testing.T, dir, mod, src string) {
	t.Helper()
	v := filepath.Join(dir, filepath.FromSlash(mod), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module " + mod + "\n\ngo 1.21\n"
	for name, data := range map[string]string{
		"list": "v1.0.0\n", "v1.0.0.info": `{"Version":"v1.0.0","Time":"2020-01-01T00:00:00Z"}`, "v1.0.0.mod": gomod,
	} {
		if err := os.WriteFile(filepath.Join(v, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, data := range map[string]string{"go.mod": gomod, "dep.go": src} {
		w, err := zw.Create(mod + "@v1.0.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v, "v1.0.0.zip"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setPath puts dir first on e's PATH.
func (e *env) setPath(dir string) {
	for i, v := range e.vars {
		if p, ok := strings.CutPrefix(v, "PATH="); ok {
			e.vars[i] = "PATH=" + dir + ":" + p
		}
	}
}

// run runs `lite-sandbox run --sandbox on -- args` in the workspace as
// e's user and returns its stdout, stderr and exit status.
func (e *env) run(extraEnv []string, args ...string) (string, string, int) {
	e.t.Helper()
	return e.lite(extraEnv, append([]string{"run", "--sandbox", "on", "--"}, args...)...)
}

// TestNpmRegistrySetting (issue 31, finding 2): `npm install` with the
// registry of ~/.npmrc writes the same package-lock.json under `run` and
// in a session as bare on the host, from a registry on 127.0.0.1 that
// serves a package no public registry has; the token of ~/.npmrc is sent
// by the bare npm (control) and never from the sandbox.
func TestNpmRegistrySetting(t *testing.T) {
	t.Parallel()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		e.setPath(filepath.Dir(npm))
		// The registry is on the host's loopback, which network =
		// "open" keeps out (#27): this test is about npm's settings, so
		// it shares the host's network (TestOpenNetwork
		// runs npm install from an internet host under open).
		e.write("~/.config/lite-sandbox/config.toml", "[sandbox]\nnetwork = \"host\"\n")
		e.vars = append(e.vars, "LITE_SANDBOX_CONFIG="+filepath.Join(e.home, ".config/lite-sandbox/config.toml"))
		reg := newFakeRegistry(t, "lite-sandbox-issue31-dep")
		e.write("~/.npmrc", "registry="+reg.url+"/\n//"+strings.TrimPrefix(reg.url, "http://")+"/:_authToken=CANARY-NPM\n")
		pkg := `{"name":"app","version":"1.0.0","dependencies":{"lite-sandbox-issue31-dep":"^1.0.0"}}`
		bare := filepath.Join(filepath.Dir(e.ws), "bare")
		for _, d := range []string{bare, e.ws} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "package.json"), []byte(pkg), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		const install = "npm install --no-audit --no-fund --no-update-notifier"
		e.chownTree()
		cmd := exec.Command("sh", "-c", install)
		cmd.Dir = bare
		cmd.Env = e.vars
		e.credential(cmd)
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("bare npm install: %v\n%s", err, o)
		}
		want, err := os.ReadFile(filepath.Join(bare, "package-lock.json"))
		if err != nil || !strings.Contains(string(want), reg.url) {
			t.Fatalf("bare lockfile does not resolve from the registry: %v\n%s", err, want)
		}
		if !reg.sawToken("CANARY-NPM") {
			t.Fatal("control: the bare npm sent no token")
		}
		reg.reset()
		for _, where := range []string{"run", "session"} {
			os.RemoveAll(filepath.Join(e.ws, "node_modules"))
			os.Remove(filepath.Join(e.ws, "package-lock.json"))
			var out, errs string
			var code int
			if where == "run" {
				out, errs, code = e.run(nil, "sh", "-c", install)
			} else {
				out, errs, code = e.launch("exec", nil, "/bin/sh", "-c", install)
			}
			if code != 0 {
				t.Fatalf("%s: npm install: exit %d\n%s\n%s", where, code, out, errs)
			}
			got, _ := os.ReadFile(filepath.Join(e.ws, "package-lock.json"))
			if !bytes.Equal(got, want) {
				t.Errorf("%s: package-lock.json differs from bare:\n%s\nbare:\n%s", where, got, want)
			}
			if reg.sawToken("") {
				t.Errorf("%s: the sandbox sent the registry token", where)
			}
		}
	})
}

// fakeRegistry serves one package, version 1.0.0, as an npm registry on
// 127.0.0.1, and records the Authorization headers it gets.
type fakeRegistry struct {
	url  string
	mu   sync.Mutex
	auth []string
}

func newFakeRegistry(t *testing.T, name string) *fakeRegistry {
	t.Helper()
	return newFakeRegistryOn(t, name, nil)
}

// newFakeRegistryOn is newFakeRegistry on l (nil: 127.0.0.1).
func newFakeRegistryOn(t *testing.T, name string, l net.Listener) *fakeRegistry {
	t.Helper()
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(gz)
	pj := []byte(`{"name":"` + name + `","version":"1.0.0"}`)
	tw.WriteHeader(&tar.Header{Name: "package/package.json", Mode: 0o644, Size: int64(len(pj)), ModTime: time.Unix(0, 0)})
	tw.Write(pj)
	tw.Close()
	gz.Close()
	sum := sha512.Sum512(tgz.Bytes())
	r := &fakeRegistry{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization"))
		r.mu.Unlock()
		switch req.URL.Path {
		case "/" + name:
			doc := map[string]any{
				"name": name, "dist-tags": map[string]string{"latest": "1.0.0"},
				"versions": map[string]any{"1.0.0": map[string]any{
					"name": name, "version": "1.0.0",
					"dist": map[string]string{
						"tarball":   r.url + "/" + name + "/-/" + name + "-1.0.0.tgz",
						"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum[:]),
					},
				}},
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(doc)
		case "/" + name + "/-/" + name + "-1.0.0.tgz":
			w.Write(tgz.Bytes())
		default:
			http.NotFound(w, req)
		}
	}))
	if l != nil {
		srv.Listener.Close()
		srv.Listener = l
	}
	srv.Start()
	t.Cleanup(srv.Close)
	r.url = srv.URL
	if l != nil {
		// Port 80: the URL npm writes into the lock file has no port.
		r.url = strings.TrimSuffix(srv.URL, ":80")
	}
	return r
}

// sawToken reports whether a request carried token ("": any token).
func (r *fakeRegistry) sawToken(token string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.auth {
		if a != "" && strings.Contains(a, token) {
			return true
		}
	}
	return false
}

func (r *fakeRegistry) reset() {
	r.mu.Lock()
	r.auth = nil
	r.mu.Unlock()
}
