// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/bwraptest"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress/egresstest"
	"github.com/lite-sandbox/lite-sandbox/sandbox/worker"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// Helper modes of the test binary, chosen by environment variables
// before any test runs.
const (
	// envWorker: "1" serves descriptor 3 as the worker (what
	// `lite-sandbox __worker` will do); "fail" fails to start.
	envWorker = "LITE_SANDBOX_TEST_WORKER"
	// envHelper: "client" runs one command through the worker like the
	// shim will; "owner" opens a session and waits to be killed.
	envHelper = "LITE_SANDBOX_TEST_HELPER"
)

func TestMain(m *testing.M) {
	egresstest.Dispatch() // __confine with the egress bridge, and the bridge
	switch os.Getenv(envWorker) {
	case "1":
		err := worker.ServeFD(3)
		fmt.Fprintln(os.Stderr, "test worker:", err)
		os.Exit(1)
	case "fail":
		fmt.Fprintln(os.Stderr, "test worker: deliberately failing to start")
		os.Exit(3)
	}
	switch os.Getenv(envHelper) {
	case "client":
		os.Exit(clientMain())
	case "owner":
		os.Exit(ownerMain())
	case "exec":
		os.Exit(execMain())
	case "shim":
		os.Exit(shimMain())
	}
	os.Exit(m.Run())
}

// clientMain runs the argv in $HELPER_ARGV (JSON) in the worker at
// $HELPER_SOCKET with this process's stdio, and exits with its status.
func clientMain() int {
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv("HELPER_ARGV")), &argv); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	st, err := worker.Run(context.Background(), os.Getenv("HELPER_SOCKET"), worker.Request{
		Argv: argv, Env: cmdEnv(os.Getenv("HELPER_HOME")), Dir: os.Getenv("HELPER_WORKSPACE"),
	}, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		return 70
	}
	return st
}

// ownerMain opens a session in $HELPER_ROOT, starts the script in
// $HELPER_SCRIPT in it, prints "ready <dir>" once the script wrote
// $HELPER_WORKSPACE/ready, and waits to be killed.
func ownerMain() int {
	ws, home := os.Getenv("HELPER_WORKSPACE"), os.Getenv("HELPER_HOME")
	o, err := options(ws, home, os.Getenv("HELPER_ROOT"), sandbox.Backend{Name: "bwrap", Path: os.Getenv("HELPER_BWRAP")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	s, err := launch.Open(context.Background(), o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	go worker.Run(context.Background(), s.Socket, worker.Request{
		Argv: []string{"/bin/bash", "-c", os.Getenv("HELPER_SCRIPT")}, Env: cmdEnv(home), Dir: ws,
	}, nil, nil, nil)
	for !exists(filepath.Join(ws, "ready")) {
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Println("ready", s.Dir)
	select {}
}

// execMain runs $HELPER_SCRIPT with launch.Exec as `launch exec`
// would, on this process's stdio, then reports whether it got the
// terminal's foreground back, and exits with the script's status.
func execMain() int {
	st, err := launch.Exec(context.Background(), &launch.Session{Dir: os.Getenv("HELPER_DIR")},
		[]string{"/bin/bash", "--noprofile", "--norc", "-c", os.Getenv("HELPER_SCRIPT")}, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Println("exec:", err)
		return 70
	}
	pg, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	fmt.Printf("restored=%v\n", err == nil && pg == unix.Getpgrp())
	return st
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

var (
	backendOnce sync.Once
	backendVal  sandbox.Backend
	backendErr  error
)

// backend returns the real bwrap, or skips the test when there is none,
// unless LITE_SANDBOX_REQUIRE_BWRAP=1 (CI), which makes it fail.
func backend(t testing.TB) sandbox.Backend {
	t.Helper()
	backendOnce.Do(func() { backendVal, backendErr = sandbox.Detect() })
	bwraptest.Require(t, backendErr)
	return backendVal
}

// cmdEnv is the environment of test commands.
func cmdEnv(home string) []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "LC_ALL=C"}
}

// randomMarker returns a number no other process on the host has in its
// command line, for finding a test's processes from the host.
func randomMarker() string {
	var b [4]byte
	rand.Read(b[:])
	return strconv.FormatUint(uint64(b[0])<<16|uint64(b[1])<<8|uint64(b[2])+1000000, 10)
}

// options builds the session options of a test: the default policy's
// sandbox over a workspace and a fake home, with the test binary as the
// worker.
func options(ws, home, root string, b sandbox.Backend) (launch.Options, error) {
	spec, err := policy.Default().SandboxSpec(ws, home, "")
	if err != nil {
		return launch.Options{}, err
	}
	exe, err := os.Executable()
	if err != nil {
		return launch.Options{}, err
	}
	return launch.Options{
		Spec:        spec,
		Backend:     b,
		Exe:         exe,
		PolicyTOML:  policy.DefaultTOML(),
		Meta:        map[string]string{"workspace": ws, "home": home, "mode": "auto"},
		RuntimeRoot: root,
		WorkerArgs:  []string{"lite-sandbox-test-worker", "marker=" + randomMarker()},
		WorkerEnv:   []string{"PATH=/usr/bin:/bin", envWorker + "=1"},
	}, nil
}

// fixture is a workspace, a fake home and a runtime root for sessions.
type fixture struct {
	b              sandbox.Backend
	ws, home, root string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	b := backend(t)
	// Not below /tmp: the sandbox has its own /tmp, and the workspace
	// binding over it is a subtlety these tests need not depend on.
	// As another user, where /var/tmp is not writable,
	// LITE_SANDBOX_TEST_HOMES names the directory (as in sandbox's tests).
	parent := "/var/tmp"
	if d := os.Getenv("LITE_SANDBOX_TEST_HOMES"); d != "" {
		parent = d
	}
	base, err := os.MkdirTemp(parent, "lite-sandbox-launch-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	f := &fixture{b: b, ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), root: filepath.Join(base, "run")}
	for _, d := range []string{f.ws, f.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) options(t *testing.T) launch.Options {
	t.Helper()
	o, err := options(f.ws, f.home, f.root, f.b)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// open opens a session that the test closes.
func (f *fixture) open(t *testing.T) *launch.Session {
	t.Helper()
	s, err := launch.Open(context.Background(), f.options(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// run runs a bash script in the session; stdout and stderr go to files.
func (f *fixture) run(t *testing.T, s *launch.Session, script string) (stdout string, status int) {
	t.Helper()
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	errf, err := os.Create(filepath.Join(dir, "err"))
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	status, err = worker.Run(context.Background(), s.Socket, f.request(script), nil, out, errf)
	if err != nil {
		t.Fatalf("run %q: %v", script, err)
	}
	o, _ := os.ReadFile(out.Name())
	if e, _ := os.ReadFile(errf.Name()); len(e) > 0 {
		t.Logf("stderr of %q: %s", script, e)
	}
	return string(o), status
}

func (f *fixture) request(script string) worker.Request {
	return worker.Request{Argv: []string{"/bin/bash", "--noprofile", "--norc", "-c", script}, Env: cmdEnv(f.home), Dir: f.ws}
}

// procsWith returns the host pids whose command line contains all of
// the given arguments.
func procsWith(args ...string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
next:
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(b) == 0 {
			continue
		}
		have := map[string]bool{}
		for _, a := range strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00") {
			have[a] = true
		}
		for _, a := range args {
			if !have[a] {
				continue next
			}
		}
		if !running(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// waitProcs waits until n processes have all of args in their command
// line: a background job shows up under its own name only once it has
// exec'd.
func waitProcs(t *testing.T, n int, args ...string) {
	t.Helper()
	var got []int
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got = procsWith(args...); len(got) == n {
			return
		}
	}
	t.Fatalf("%d processes with %q on the host (%v) after %v, want %d", len(got), args, got, hangGuard, n)
}

// hangGuard is how long a test waits for what must happen before it
// fails: long, since tests run in parallel on a loaded machine, and it
// only ever bounds a hang (timings belong in scripts/bench).
const hangGuard = 30 * time.Second

// waitExists waits until path exists, and fails the test after a
// deadline rather than hang until go test's own timeout.
func waitExists(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if exists(path) {
			return
		}
	}
	t.Fatalf("%s did not appear within %v", path, hangGuard)
}

// running reports whether pid runs (exists and is no zombie).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// workerPID finds the worker process of a session on the host: the test
// binary with the session's marker argument (bwrap's command lines hold
// it too, but start with bwrap).
func workerPID(t *testing.T, o launch.Options) int {
	t.Helper()
	exe, _ := filepath.EvalSymlinks(o.Exe)
	for _, pid := range procsWith(o.WorkerArgs...) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if strings.HasPrefix(string(b), exe+"\x00") {
			return pid
		}
	}
	t.Fatal("worker process not found on the host")
	return 0
}

// waitLine reads lines from r until one starts with prefix.
func waitLine(t *testing.T, sc *bufio.Scanner, prefix string) string {
	t.Helper()
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			return sc.Text()
		}
	}
	t.Fatalf("no line starting with %q (%v)", prefix, sc.Err())
	return ""
}
