// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/internal/bwraptest"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// TestMain lets the test binary be lite-sandbox's __confine and bridge
// inside the sandbox, as the shim's own binary is.
func TestMain(m *testing.M) {
	egresstest.Dispatch()
	os.Exit(m.Run())
}

func requireBwrap(t *testing.T) {
	t.Helper()
	_, err := sandbox.Detect()
	bwraptest.Require(t, err)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("skipping: curl is not installed")
	}
}

// perCommandEgress sets up the shim's own proxy (in this process, with
// the test resolver) over the test servers and returns them, the
// workspace, the state directory and a function that runs a script
// through the shim and the real bubblewrap.
func perCommandEgress(t *testing.T) (*egresstest.Servers, string, string, func(*testing.T, string) (int, string)) {
	requireBwrap(t)
	base, err := os.MkdirTemp("/var/tmp", "lite-sandbox-egress-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	ws, home, state := filepath.Join(base, "ws"), filepath.Join(base, "home"), filepath.Join(base, "state")
	for _, d := range []string{ws, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv := egresstest.Start(t, ws)
	testResolver = egresstest.NewResolver()
	t.Cleanup(func() { testResolver = nil })
	cfg := filepath.Join(base, "config.toml")
	writeConfig(t, cfg, srv)
	getenv := func(k string) string {
		switch k {
		case "HOME":
			return home
		case "XDG_STATE_HOME":
			return state
		}
		return ""
	}
	run := func(t *testing.T, script string) (int, string) {
		t.Helper()
		var stderr bytes.Buffer
		c, err := config.Load(config.Options{ConfigFile: cfg, Workspace: ws, Cwd: ws, Mode: "on", Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(c, &stderr)
		if err != nil {
			t.Fatal(err)
		}
		err = s.RunArgv([]string{"/bin/bash", "-c", script})
		var ee *exit.Error
		if !errors.As(err, &ee) {
			t.Fatalf("RunArgv: %v", err)
		}
		if ee.Code == exit.Denied {
			t.Fatalf("validator: %v", ee.Err)
		}
		return ee.Code, stderr.String()
	}
	return srv, ws, state, run
}

// TestEgressPerCommand runs the probes through the shim's own proxy and
// the real bubblewrap.
func TestEgressPerCommand(t *testing.T) {
	srv, ws, state, run := perCommandEgress(t)
	t.Run("probes", func(t *testing.T) {
		out := filepath.Join(ws, "probes.out")
		// A file: the validator refuses the probe function's "$@".
		if err := os.WriteFile(filepath.Join(ws, "probes.sh"), []byte(srv.Script()), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, stderr := run(t, "bash probes.sh > "+out); code != 0 {
			t.Fatalf("probe script: status %d\n%s", code, stderr)
		}
		b, _ := os.ReadFile(out)
		t.Logf("probes:\n%s", b)
		egresstest.Check(t, string(b))
	})
	t.Run("explain", func(t *testing.T) {
		code, stderr := run(t, "curl -fsS -m 10 http://"+egresstest.Refused+"/ 2>/dev/null")
		if code == 0 {
			t.Fatal("refused name reached")
		}
		if !strings.Contains(stderr, "lite-sandbox: network access to refused.test:80 was refused") ||
			!strings.Contains(stderr, "sandbox.allow_domains") {
			t.Errorf("no explain line naming the domain and the key:\n%s", stderr)
		}
		code, stderr = run(t, "curl -fsS -m 10 http://"+egresstest.Metadata+"/ 2>/dev/null")
		if code == 0 || !strings.Contains(stderr, "metadata.test:80") || !strings.Contains(stderr, "sandbox.allow_addresses") {
			t.Errorf("metadata: status %d, want an explain line naming sandbox.allow_addresses:\n%s", code, stderr)
		}
	})
	t.Run("git over https", func(t *testing.T) {
		if srv.GitRepo == "" {
			t.Skip("git is not installed")
		}
		url := fmt.Sprintf("https://%s:%d%s", egresstest.Allowed, srv.HTTPS, srv.GitRepo)
		code, stderr := run(t, "GIT_SSL_CAINFO="+srv.CAFile+" git clone -q "+url+" cloned && git -C cloned log --format=%s > cloned.log")
		if code != 0 {
			t.Fatalf("git clone over https through the proxy: status %d\n%s", code, stderr)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "cloned.log")); strings.TrimSpace(string(b)) != "first" {
			t.Errorf("cloned log = %q", b)
		}
	})
	t.Run("ssh", func(t *testing.T) {
		code, stderr := run(t, "git ls-remote git@"+egresstest.Allowed+":x/y.git 2>&1 | grep -q 'git over ssh is not available' || exit 9; exit 1")
		if code != 1 {
			t.Errorf("git over ssh: status %d, want the hint from GIT_SSH_COMMAND\n%s", code, stderr)
		}
		if !strings.Contains(stderr, "git over ssh and ssh are not available") {
			t.Errorf("no explain line for git over ssh:\n%s", stderr)
		}
	})
	t.Run("audit", func(t *testing.T) { checkEgressAudit(t, state, srv) })
}

// checkEgressAudit reads the audit log the commands above wrote.
func checkEgressAudit(t *testing.T, state string, srv *egresstest.Servers) {
	b, err := os.ReadFile(filepath.Join(state, "lite-sandbox", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"egress":"refused.test:80","decision":"deny"`)) &&
		!bytes.Contains(b, []byte(`"egress":"refused.test:80"`)) {
		t.Errorf("audit log has no decision for refused.test:\n%s", b)
	}
	if !bytes.Contains(b, []byte(`"rule":"sandbox.allow_domains"`)) {
		t.Errorf("audit log does not name the key:\n%s", b)
	}
	// Every tool that sends the proxy credentials is recorded under
	// its command's identifier, with the address dialled: curl, and
	// git (GIT_HTTP_PROXY_AUTHMETHOD). (The SOCKS5 probes name the
	// proxy themselves, without credentials.)
	for _, l := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(l, []byte(`"egress_result":"allow"`)) && !bytes.Contains(l, []byte("(network socks5)")) &&
			(!bytes.Contains(l, []byte(`"command_id":"`)) || !bytes.Contains(l, []byte(`"egress_addr":"127.0.0.1:`))) {
			t.Errorf("allowed connection without command or address: %s", l)
		}
	}
	joined := false
	for _, l := range bytes.Split(b, []byte("\n")) {
		joined = joined || bytes.Contains(l, []byte(`"sandbox":"sandboxed"`)) && bytes.Contains(l, []byte(`"command_id":"`))
	}
	if !joined {
		t.Errorf("no command record with its identifier:\n%s", b)
	}
	if srv.GitRepo != "" && !bytes.Contains(b, []byte(fmt.Sprintf(`"egress":"%s:%d"`, egresstest.Allowed, srv.HTTPS))) {
		t.Errorf("no record of git's connection:\n%s", b)
	}
}

func writeConfig(t *testing.T, path string, srv *egresstest.Servers) {
	t.Helper()
	q := func(l []string) string { return `["` + strings.Join(l, `", "`) + `"]` }
	cfg := "[sandbox]\nnetwork = \"allow\"\nallow_domains = " + q(srv.AllowDomains()) +
		"\nallow_addresses = " + q(srv.AllowAddresses()) + "\n"
	// The JVM reads its security configuration from /etc/java-*
	// (Debian), which the default sandbox.etc does not list.
	if java, _ := filepath.Glob("/etc/java-*"); len(java) > 0 {
		for i := range java {
			java[i] = filepath.Base(java[i])
		}
		cfg += "etc = " + q(java) + "\n"
	}
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEgressIgnoredProxy: a program that ignores the proxy variables
// gets ENETUNREACH inside the sandbox's namespace, and the explanation
// says so and how to point it at the proxy.
func TestEgressIgnoredProxy(t *testing.T) {
	_, _, _, run := perCommandEgress(t)
	// Inside the sandbox's own namespace (loopback only) every other
	// address is unreachable: nothing is sent anywhere.
	code, stderr := run(t, "{ exec 3<>/dev/tcp/192.0.2.1/80; } 2>u.err; grep -q 'Network is unreachable' u.err && exit 1; exit 9")
	if code != 1 ||
		!strings.Contains(stderr, "no connection of this command reached the proxy") || !strings.Contains(stderr, "nc -X 5 -x 127.0.0.1:1080") {
		t.Errorf("raw socket: status %d, want ENETUNREACH and the line saying the proxy was ignored:\n%s", code, stderr)
	}
	// Positive control: a command that used the proxy gets its
	// refusal, not that line.
	code, stderr = run(t, "curl -fsS -m 10 http://"+egresstest.Refused+"/ 2>/dev/null; nc -h >/dev/null 2>&1; exit 1")
	if code == 0 || strings.Contains(stderr, "no connection of this command") || !strings.Contains(stderr, "refused.test:80") {
		t.Errorf("curl then nc: status %d, want only the refusal:\n%s", code, stderr)
	}
}

// TestEgressStaleSocketDirs: the socket directory of a killed shim is
// removed by the next one; a running shim's is kept.
func TestEgressStaleSocketDirs(t *testing.T) {
	_, _, _, run := perCommandEgress(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { live.Process.Kill(); live.Wait() })
	mk := func(pid int) string {
		d, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", egressDirPrefix, pid))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	gone, kept := mk(dead.Process.Pid), mk(live.Process.Pid)
	if code, stderr := run(t, "true"); code != 0 {
		t.Fatalf("status %d\n%s", code, stderr)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the socket directory of a killed shim (pid %d) was left: %v", dead.Process.Pid, err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the socket directory of a running shim was removed: %v", err)
	}
}

// TestEgressRuntimes: the JVM reaches an allowed name through the proxy
// with nothing but the JAVA_TOOL_OPTIONS it is given; Node 20's fetch,
// which ignores the proxy variables, fails and is explained.
func TestEgressRuntimes(t *testing.T) {
	srv, ws, _, run := perCommandEgress(t)
	url := fmt.Sprintf("http://%s:%d/", egresstest.Allowed, srv.HTTP)
	t.Run("java", func(t *testing.T) {
		if _, err := exec.LookPath("java"); err != nil {
			t.Skip("java is not installed")
		}
		src := `public class Get { public static void main(String[] a) throws Exception {
  var c = (java.net.HttpURLConnection) new java.net.URL(a[0]).openConnection();
  System.out.print(new String(c.getInputStream().readAllBytes()));
} }`
		if err := os.WriteFile(filepath.Join(ws, "Get.java"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := run(t, "java Get.java "+url+" > java.out 2>java.err")
		b, _ := os.ReadFile(filepath.Join(ws, "java.out"))
		e, _ := os.ReadFile(filepath.Join(ws, "java.err"))
		if code != 0 || string(b) != egresstest.Body {
			t.Errorf("java: status %d, %q\n%s%s", code, b, e, stderr)
		}
	})
	t.Run("node", func(t *testing.T) {
		out, err := exec.Command("node", "-p", "process.versions.node.split('.')[0]").Output()
		if err != nil {
			t.Skip("node is not installed")
		}
		if major, _ := strconv.Atoi(strings.TrimSpace(string(out))); major >= 24 {
			t.Skip("Node 24 honours NODE_USE_ENV_PROXY")
		}
		code, stderr := run(t, `node -e "fetch('`+url+`').then(() => process.exit(0), () => process.exit(3))"`)
		if code != 3 || !strings.Contains(stderr, "no connection of this command reached the proxy") ||
			!strings.Contains(stderr, "EnvHttpProxyAgent") {
			t.Errorf("node fetch: status %d, want 3 and the Node line:\n%s", code, stderr)
		}
	})
}
