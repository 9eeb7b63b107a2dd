// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The explanation gaps of #27, point 4, through the real `run` and
// launcher, bubblewrap and the proxy, as root and as an unprivileged
// user; each refusal beside a case that gets through.

// netConfig writes e's config for network = "allow" to a server of the
// test on 127.0.0.1 and returns its URL; upstream is
// sandbox.upstream_proxy.
func netConfig(t *testing.T, e *env, upstream string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "served\n") })}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	e.write("~/.config/lite-sandbox/config.toml", fmt.Sprintf(`[sandbox]
network = "allow"
allow_domains = ["127.0.0.1"]
allow_addresses = ["127.0.0.1:%s"]
upstream_proxy = %q
`, port, upstream))
	return "http://127.0.0.1:" + port + "/"
}

// proxyCurl is curl through the command's proxy variables also for the
// test server on 127.0.0.1 (which NO_PROXY would send direct).
const proxyCurl = "NO_PROXY= no_proxy= curl -fsS -m 30 "

// TestEgressExplainRun: through `lite-sandbox run`: a failed ssh (255),
// python's own socket, a special IP literal and a request refused
// before it named a target are each explained; the allowed server is
// reached by curl and by python through the proxy (the controls); and
// run records every connection in egress.jsonl beside the audit log.
func TestEgressExplainRun(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"curl", "ssh", "/usr/bin/python3"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		url := netConfig(t, e, "none")
		sh := func(script string) (string, int) {
			out, errs, code := e.run(nil, "bash", "-c", script)
			return out + errs, code
		}
		if out, code := sh(proxyCurl + url); code != 0 || !strings.Contains(out, "served") {
			t.Fatalf("control: curl to the allowed server: exit %d\n%s", code, out)
		}
		pyGet := `import os, urllib.request; os.environ.pop("NO_PROXY", None); os.environ.pop("no_proxy", None); print(urllib.request.urlopen("` + url + `", timeout=30).read().decode())`
		if out, errs, code := e.run(nil, "/usr/bin/python3", "-c", pyGet); code != 0 || !strings.Contains(out, "served") {
			t.Errorf("control: python through the proxy: exit %d\n%s%s", code, out, errs)
		}
		for _, c := range []struct {
			name   string
			argv   []string
			status int // 0: any failure
			want   string
		}{
			{"ssh", []string{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "git@192.0.2.1", "true"}, 255, "ssh are not available"},
			{"python socket", []string{"/usr/bin/python3", "-c", "import socket; socket.create_connection(('192.0.2.1', 80), 10)"}, 0, "Python's socket module"},
			{"special literal", []string{"bash", "-c", proxyCurl + "http://169.254.169.254/"}, 0,
				`sandbox.allow_addresses += ["169.254.169.254:80"] and sandbox.allow_domains += ["169.254.169.254"]`},
			{"no target", []string{"bash", "-c", proxyCurl + "ftp://127.0.0.1:21/"}, 0, "refused a connection before it named a target: only http:// URLs"},
		} {
			out, errs, code := e.run(nil, c.argv...)
			if code == 0 || c.status != 0 && code != c.status {
				t.Errorf("%s: exit %d, want a failure (%d)\n%s%s", c.name, code, c.status, out, errs)
			}
			if !strings.Contains(errs, c.want) {
				t.Errorf("%s: the explanation lacks %q:\n%s", c.name, c.want, errs)
			}
		}
		b, err := os.ReadFile(filepath.Join(e.home, ".local", "state", "lite-sandbox", "egress.jsonl"))
		for _, w := range []string{`"result":"allow"`, `"host":"169.254.169.254"`, `"host":"-"`} {
			if !strings.Contains(string(b), w) {
				t.Errorf("run's egress.jsonl lacks %s (%v):\n%s", w, err, b)
			}
		}
	})
}

// fakeUpstream is a corporate proxy: CONNECT only, with Basic
// credentials user:pass; it reports what it was sent.
func fakeUpstream(t *testing.T, user, pass string) (addr string, auths func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Proxy-Authorization"))
		mu.Unlock()
		if r.Method != http.MethodConnect || r.Header.Get("Proxy-Authorization") != want {
			w.Header().Set("Proxy-Authenticate", `Basic realm="corp"`)
			w.WriteHeader(http.StatusProxyAuthRequired)
			return
		}
		up, err := net.Dial("tcp", r.Host)
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		c, brw, _ := w.(http.Hijacker).Hijack()
		io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() { io.Copy(up, brw); up.Close() }()
		io.Copy(c, up)
		c.Close()
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String(), func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

// TestEgressUpstreamAuth: an upstream proxy that wants credentials: its
// 407 is explained as such, not as a name to check; with them (the
// control) the request gets through; in a session they are used by the
// launcher and are in no file of the session directory the ring reads,
// nor in the ring's environment.
func TestEgressUpstreamAuth(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	const secret = "S3cretPW-27"
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		up, auths := fakeUpstream(t, "alice", secret)
		url := netConfig(t, e, "http://"+up)
		out, errs, code := e.run(nil, "bash", "-c", proxyCurl+url)
		if code == 0 || !strings.Contains(errs, "needs credentials") || strings.Contains(errs, "check the name") {
			t.Errorf("407 without credentials: exit %d, want a line saying the upstream needs credentials:\n%s%s", code, out, errs)
		}
		url = netConfig(t, e, "http://alice:"+secret+"@"+up)
		if out, errs, code := e.run(nil, "bash", "-c", proxyCurl+url); code != 0 || !strings.Contains(out, "served") {
			t.Fatalf("control: with the credentials: exit %d\n%s%s", code, out, errs)
		}
		f := e.ringRead(secret, url)
		t.Logf("ring: %v", f)
		if !strings.Contains(f["served"], "served") {
			t.Errorf("a command of the session through the upstream: %q, want served (the launcher holds the password)", f["served"])
		}
		if f["policy"] != "read" {
			t.Errorf("the ring could not read the session's policy.toml (%q): the check proves nothing", f["policy"])
		}
		if f["found"] != "" {
			t.Errorf("the upstream proxy's password is readable in the ring: %s", f["found"])
		}
		if n := len(auths()); n < 2 {
			t.Errorf("the upstream saw %d requests, want the refused one and the allowed ones", n)
		}
	})
}

// ringReadEnv makes the test binary the reader in the ring.
const ringReadEnv = "LITE_SANDBOX_RINGREAD_PROBE"

type ringReadSpec struct{ Secret, URL, Out string }

func init() {
	if raw := os.Getenv(ringReadEnv); raw != "" {
		os.Exit(ringRead(raw))
	}
}

// ringReadSpec's reader: every file of the session directory it can
// read, and its own environment, searched for the secret; one command
// of the session through the proxy.
func ringRead(raw string) int {
	var s ringReadSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return 2
	}
	f := map[string]string{}
	dir := os.Getenv("LITE_SANDBOX_SESSION")
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), s.Secret) {
			f["found"] += p + " "
		}
		if err == nil && filepath.Base(p) == "policy.toml" && strings.Contains(string(b), "upstream_proxy") {
			f["policy"] = "read"
		}
		return nil
	})
	for _, kv := range os.Environ() {
		// The spec's own variable holds the secret to look for.
		if !strings.HasPrefix(kv, ringReadEnv+"=") && strings.Contains(kv, s.Secret) {
			f["found"] += "environment "
		}
	}
	out, err := exec.Command("bash", "-c", proxyCurl+s.URL).CombinedOutput()
	f["served"] = fmt.Sprintf("%s [%v]", out, err)
	b, _ := json.Marshal(f)
	if err := os.WriteFile(s.Out, b, 0o644); err != nil {
		return 1
	}
	return 0
}

// ringRead runs the reader in the ring of a session (launch exec).
func (e *env) ringRead(secret, url string) map[string]string {
	e.t.Helper()
	out := filepath.Join(e.ws, ".ringread.json")
	raw, _ := json.Marshal(ringReadSpec{Secret: secret, URL: url, Out: out})
	text, code := e.runWith([]string{binary, "launch", "--sandbox", "on", "exec", "--", probeBinary}, []string{ringReadEnv + "=" + string(raw)}, nil)
	b, err := os.ReadFile(out)
	if err != nil {
		e.t.Fatalf("the reader in the ring wrote nothing (exit %d): %v\n%s", code, err, text)
	}
	f := map[string]string{}
	json.Unmarshal(b, &f)
	return f
}

// attribEnv makes the test binary the attribution driver in the ring.
const attribEnv = "LITE_SANDBOX_ATTRIB_PROBE"

type attribSpec struct{ URL, Dir, Out string }

func init() {
	if raw := os.Getenv(attribEnv); raw != "" {
		os.Exit(attribDriver(raw))
	}
}

// attribDriver: a background command of the session keeps being
// refused without an identifier (an explicit proxy with no
// credentials); meanwhile another command's own connection is allowed
// and it fails otherwise. Both commands' output is reported.
func attribDriver(raw string) int {
	var s attribSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return 2
	}
	f := map[string]string{}
	started, stop := filepath.Join(s.Dir, "noise.started"), filepath.Join(s.Dir, "noise.stop")
	noise := exec.Command("bash", "-c", "for i in $(seq 1 2000); do [ -e "+stop+" ] && break; "+
		"curl -s -m 5 --proxy http://127.0.0.1:3128 http://noise.invalid/ >/dev/null; touch "+started+"; done; exit 3")
	var noiseOut strings.Builder
	noise.Stdout, noise.Stderr = &noiseOut, &noiseOut
	if err := noise.Start(); err != nil {
		f["noise"] = err.Error()
	}
	for i := 0; i < 6000; i++ { // a bound: the test's own guard ends it too
		if _, err := os.Stat(started); err == nil {
			break
		}
		exec.Command("sleep", "0.01").Run()
	}
	out, err := exec.Command("bash", "-c", proxyCurl+s.URL+" && exit 4").CombinedOutput()
	f["own"] = fmt.Sprintf("%s [%v]", out, err)
	os.WriteFile(stop, nil, 0o644)
	f["noise_exit"] = fmt.Sprint(noise.Wait())
	f["noise"] = noiseOut.String()
	b, _ := json.Marshal(f)
	if err := os.WriteFile(s.Out, b, 0o644); err != nil {
		return 1
	}
	return 0
}

// TestEgressAttribution: in a session, a command whose own connection
// was allowed and that failed otherwise is not told the refusals another
// command made meanwhile without an identifier; the command that made
// them is (the control: such refusals are explained to a command with
// no connection of its own).
func TestEgressAttribution(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		url := netConfig(t, e, "none")
		out := filepath.Join(e.ws, ".attrib.json")
		raw, _ := json.Marshal(attribSpec{URL: url, Dir: e.ws, Out: out})
		text, code := e.runWith([]string{binary, "launch", "--sandbox", "on", "exec", "--", probeBinary}, []string{attribEnv + "=" + string(raw)}, nil)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("the driver wrote nothing (exit %d): %v\n%s", code, err, text)
		}
		f := map[string]string{}
		json.Unmarshal(b, &f)
		t.Logf("findings: %v", f)
		if !strings.Contains(f["own"], "served") || !strings.Contains(f["own"], "exit status 4") {
			t.Fatalf("the command's own connection: %q, want served, then its own failure", f["own"])
		}
		if strings.Contains(f["own"], "noise.invalid") {
			t.Errorf("the command was told another command's refusal:\n%s", f["own"])
		}
		if !strings.Contains(f["noise"], "noise.invalid:80 was refused") {
			t.Errorf("control: the refusing command's own explanation lacks its refusal:\n%s", f["noise"])
		}
	})
}
