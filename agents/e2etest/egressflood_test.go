// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
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
	"testing"
	"time"
)

// Issue #27, point 3: egress.sock is visible in the sandbox, and a
// command that holds many connections to it drove the launcher to
// EMFILE; the proxy's accept loop returned and every later request of
// the session got a 504. The probe below runs in the ring (launch
// exec) with the launcher under `ulimit -n 1024`, and starts each step
// as a command of the session (the ring's bash is the shim).

// floodProbeEnv makes the test binary the flood driver: a JSON
// floodSpec. Its findings go to Out.
const floodProbeEnv = "LITE_SANDBOX_FLOOD_PROBE"

type floodSpec struct {
	URL string `json:"url"`
	Dir string `json:"dir"` // the workspace: flood.py, its status and stop files
	Out string `json:"out"`
}

// init dispatches before TestMain: the driver needs nothing of it.
func init() {
	if raw := os.Getenv(floodProbeEnv); raw != "" {
		os.Exit(floodProbe(raw))
	}
}

// floodScript is the hostile command: three processes of its group,
// each holding as many connections to egress.sock (found in its mount
// table) as its descriptor limit lets it, until the stop file appears;
// it writes the number it connected to the status file, and fails, so
// that its shim explains.
const floodScript = `import os, socket, sys, time, resource
stop, status = sys.argv[1], sys.argv[2]
sock = next(l.split()[4] for l in open("/proc/self/mountinfo") if l.split()[4].endswith("/egress.sock"))
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
r, w = os.pipe()
kids = []
for i in range(3):
    pid = os.fork()
    if pid == 0:
        os.close(r)
        held, fails = [], 0
        while len(held) < hard - 16 and fails < 5:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(5)
            try:
                s.connect(sock)
                held.append(s)
            except OSError:
                s.close()
                fails += 1
        os.write(w, (str(len(held)) + "\n").encode())
        os.close(w)
        while not os.path.exists(stop):
            time.sleep(0.05)
        os._exit(0)
    kids.append(pid)
os.close(w)
counts = [int(x) for x in os.fdopen(r).read().split()]
open(status + ".tmp", "w").write("%d %s\n" % (sum(counts), sock))
os.rename(status + ".tmp", status)
for pid in kids:
    os.waitpid(pid, 0)
sys.exit(3)  # failed: the shim explains
`

// floodProbe runs in the ring: a request before the flood, the flood,
// a request of another command while it holds its connections, then
// one after it let go.
func floodProbe(raw string) int {
	var s floodSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	f := map[string]string{}
	// NO_PROXY emptied: the test server is on 127.0.0.1, which the
	// command's NO_PROXY would send direct (inside: nothing there).
	curl := "NO_PROXY= no_proxy= curl -sS -m 60 -o /dev/null -w 'code=%{http_code}' " + s.URL
	run := func(c string) string {
		out, err := exec.Command("bash", "-c", c).CombinedOutput()
		return fmt.Sprintf("%s [%v]", out, err)
	}
	f["before"] = run(curl)
	stop, status := filepath.Join(s.Dir, "flood.stop"), filepath.Join(s.Dir, "flood.status")
	flood := exec.Command("bash", "-c", "exec /usr/bin/python3 flood.py "+stop+" "+status)
	flood.Dir = s.Dir
	var floodOut strings.Builder
	flood.Stdout, flood.Stderr = &floodOut, &floodOut
	if err := flood.Start(); err != nil {
		f["flood"] = "start: " + err.Error()
	} else {
		for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if b, err := os.ReadFile(status); err == nil {
				f["flood"] = strings.TrimSpace(string(b))
				break
			}
		}
		f["during"] = run(curl)
		os.WriteFile(stop, nil, 0o644)
		f["flood_exit"] = fmt.Sprint(flood.Wait())
		f["flood_out"] = floodOut.String()
	}
	f["after"] = run(curl)
	b, _ := json.Marshal(f)
	if err := os.WriteFile(s.Out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestEgressSocketFlood: through the real launcher (launch exec, the
// ring, the session's commands in bubblewrap) under `ulimit -n 1024`,
// root and unprivileged: a request before the flood is served (the
// positive control); a command then connects to egress.sock more than
// a thousand times and holds them; a request of another command while
// it holds them is served, and so is one after. The flood's own
// explanation says why the proxy closed what it connected past its
// share (recorded in egress.jsonl without a target).
func TestEgressSocketFlood(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"curl", "/usr/bin/python3"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
	users(t, func(t *testing.T, e *env) {
		t.Parallel()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })}
		go srv.Serve(l)
		t.Cleanup(func() { srv.Close() })
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		e.write("~/.config/lite-sandbox/config.toml", `[sandbox]
network = "allow"
allow_domains = ["127.0.0.1"]
allow_addresses = ["127.0.0.1:`+port+`"]
upstream_proxy = "none"
`)
		e.write("flood.py", floodScript)
		out := filepath.Join(e.ws, ".flood.json")
		raw, _ := json.Marshal(floodSpec{URL: "http://127.0.0.1:" + port + "/", Dir: e.ws, Out: out})
		argv := []string{"/bin/bash", "-c", `ulimit -n 1024 && exec "$@"`, "bash",
			binary, "launch", "--sandbox", "on", "exec", "--", probeBinary}
		text, code := e.runWith(argv, []string{floodProbeEnv + "=" + string(raw)}, nil)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("no findings (exit %d): %v\n%s", code, err, text)
		}
		f := map[string]string{}
		json.Unmarshal(b, &f)
		t.Logf("findings: %v", f)
		if !strings.HasPrefix(f["before"], "code=200") {
			t.Fatalf("before the flood: %q, want 200 (the control)\n%s", f["before"], text)
		}
		n, _ := strconv.Atoi(strings.Fields(f["flood"] + " 0")[0])
		if n <= 1024 {
			t.Fatalf("the flood held %d connections, want more than the launcher's 1024 descriptors: it proves nothing", n)
		}
		for _, k := range []string{"during", "after"} {
			if !strings.HasPrefix(f[k], "code=200") {
				t.Errorf("%s the flood: %q, want 200", k, f[k])
			}
		}
		// The flood's own shim explains, from the session's
		// egress.jsonl, why the proxy closed what it connected.
		if !strings.Contains(f["flood_out"], "refused a connection before it named a target: too many connections") {
			t.Errorf("the flood command's explanation lacks the line for the refused connections:\n%s", f["flood_out"])
		}
	})
}
