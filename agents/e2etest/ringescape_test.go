// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The escape classes of #17 (docs/security-model.md §5, classes 40 to
// 48), each tried by a program in the agent ring that is not a shell
// (this test binary, as escapeProbe), as root and as an unprivileged
// user, with a positive control beside each refusal: the same probe run
// on the host does get through, and inside the ring it does what an
// agent needs (the workspace, git identity, a granted path).

// escapeProbeEnv makes the test binary act as the probe: a JSON
// probeSpec. Its findings go to spec.Out as a JSON object.
const escapeProbeEnv = "LITE_SANDBOX_ESCAPE_PROBE"

type probeSpec struct {
	Mode string            `json:"mode"`
	Out  string            `json:"out"`
	Args map[string]string `json:"args"`
}

// escapeProbe runs one mode and records what it could do.
func escapeProbe(raw string) int {
	var s probeSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	f := map[string]string{}
	switch s.Mode {
	case "proc":
		probeProc(s, f)
	case "daemon":
		probeDaemon(s, f)
	case "daemon-child":
		daemonChild(s)
		return 0
	case "tty":
		probeTTY(s, f)
	case "reads":
		probeReads(s, f)
	case "ipc":
		probeIPC(s, f)
	case "names":
		probeNames(s, f)
	case "run":
		probeRun(s, f)
	case "net":
		probeNet(s, f)
	}
	b, _ := json.Marshal(f)
	if err := os.WriteFile(s.Out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// did records whether err is nil as "yes" or the error.
func did(err error) string {
	if err == nil {
		return "yes"
	}
	return "no: " + err.Error()
}

// probeProc: the ring's /proc shows its own processes only; the host's
// root is not reachable through /proc/PID/root (class 40).
func probeProc(s probeSpec, f map[string]string) {
	comm, _ := os.ReadFile("/proc/1/comm")
	f["pid1"] = strings.TrimSpace(string(comm))
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			n++
			// Every process's root: none may lead to the host's home.
			p := filepath.Join("/proc", e.Name(), "root", s.Args["target"])
			if err := os.WriteFile(p, []byte("pwned\n"), 0o644); err == nil {
				f["wrote_via"] = p
			}
		}
	}
	f["procs"] = strconv.Itoa(n)
	_, err := os.Stat(filepath.Join("/proc", s.Args["hostpid"]))
	f["host_pid_visible"] = did(err)
	f["self"] = did(func() error { _, err := os.ReadFile("/proc/self/status"); return err }())
}

// probeDaemon starts a child in a session of its own (setsid) that
// outlives the probe and keeps trying to plant code in the workspace
// once the session's placeholders are gone (class 41).
func probeDaemon(s probeSpec, f map[string]string) {
	self, _ := os.Executable()
	child := s
	child.Mode = "daemon-child"
	b, _ := json.Marshal(child)
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), escapeProbeEnv+"="+string(b))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	f["started"] = did(cmd.Start())
	// Wait until it is alive and has written inside the session.
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(s.Args["alive"]); err == nil {
			f["alive"] = "yes"
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if s.Args["hold"] != "" {
		// Until the test kills the launcher.
		time.Sleep(60 * time.Second)
	}
}

// daemonChild writes its pid, then tries for a few seconds (or as long
// as its "last" argument says) to write the planted file.
func daemonChild(s probeSpec) {
	os.WriteFile(s.Args["alive"], []byte(strconv.Itoa(os.Getpid())), 0o644)
	last, err := time.ParseDuration(s.Args["last"])
	if err != nil {
		last = 5 * time.Second
	}
	for end := time.Now().Add(last); time.Now().Before(end); {
		os.WriteFile(s.Args["plant"], []byte("echo planted\n"), 0o644)
		time.Sleep(20 * time.Millisecond)
	}
}

// probeTTY: no controlling terminal to open, and TIOCSTI refused on the
// terminal the ring was handed as stdout (class 42).
func probeTTY(_ probeSpec, f map[string]string) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	f["open_tty"] = did(err)
	if err == nil {
		tty.Close()
	}
	c := byte('\n') // a whole line, so that the queue counts it (canonical mode)
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, 1, unix.TIOCSTI, uintptr(unsafePointer(&c)))
	if errno == 0 {
		f["tiocsti"] = "yes"
	} else {
		f["tiocsti"] = "no: " + errno.Error()
	}
}

// probeReads: what the ring shows of the host (class 43), and what the
// agent's environment holds (class 3).
func probeReads(s probeSpec, f map[string]string) {
	for _, k := range strings.Split(s.Args["paths"], "\n") {
		_, err := os.ReadFile(k)
		f["read:"+k] = did(err)
	}
	env, _ := os.ReadFile("/proc/self/environ")
	has := func(prefix string) string {
		for _, kv := range strings.Split(string(env), "\x00") {
			if strings.HasPrefix(kv, prefix) {
				return "true"
			}
		}
		return "false"
	}
	f["environ_has_token"] = has(s.Args["token"])
	f["environ_has_login"] = has(s.Args["login"])
}

// probeIPC: the host's Unix sockets (pathname and abstract), its
// /dev/shm and its processes are out of reach (class 44).
func probeIPC(s probeSpec, f map[string]string) {
	for _, k := range []string{"sock", "abstract"} {
		c, err := net.DialTimeout("unix", s.Args[k], time.Second)
		f["connect:"+k] = did(err)
		if err == nil {
			c.Close()
		}
	}
	_, err := os.Stat(s.Args["shm"])
	f["shm"] = did(err)
	pid, _ := strconv.Atoi(s.Args["hostpid"])
	f["signal"] = did(syscall.Kill(pid, 0))
	f["ssh_auth_sock"] = os.Getenv("SSH_AUTH_SOCK")
}

// runProbe runs the probe in mode: in the ring (launch exec) or, for
// the positive control, directly on the host. extra are further
// environment entries for launch.
func (e *env) runProbe(mode string, ring bool, args map[string]string, extra ...string) map[string]string {
	e.t.Helper()
	out := filepath.Join(e.ws, ".probe-"+mode+"-"+strconv.FormatBool(ring)+".json")
	os.Remove(out)
	b, _ := json.Marshal(probeSpec{Mode: mode, Out: out, Args: args})
	vars := append([]string{escapeProbeEnv + "=" + string(b)}, extra...)
	if ring {
		stdout, stderr, code := e.launch("exec", vars, probeBinary)
		if code != 0 {
			e.t.Fatalf("probe %s in the ring: exit %d\n%s\n%s", mode, code, stdout, stderr)
		}
	} else {
		cmd := exec.Command(probeBinary)
		cmd.Dir = e.ws
		cmd.Env = append(append([]string{}, e.vars...), vars...)
		e.credential(cmd)
		if o, err := cmd.CombinedOutput(); err != nil {
			e.t.Fatalf("probe %s on the host: %v\n%s", mode, err, o)
		}
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		e.t.Fatalf("probe %s (ring %v) wrote no findings: %v", mode, ring, err)
	}
	f := map[string]string{}
	if err := json.Unmarshal(raw, &f); err != nil {
		e.t.Fatal(err)
	}
	return f
}

// expect checks findings: each key's value must start with the wanted
// prefix ("yes", "no").
func expect(t *testing.T, what string, f map[string]string, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if !strings.HasPrefix(f[k], w) {
			t.Errorf("%s: %s = %q, want %s… (all: %v)", what, k, f[k], w, f)
		}
	}
}

// users runs fn as root and as an unprivileged user (nobody), each with
// an env of its own.
func users(t *testing.T, fn func(t *testing.T, e *env)) {
	asUsers(t, func(t *testing.T) *env { return newEnv(t, "", "") }, "", fn)
}

// asUsers runs fn on an env made by mk as root and as an unprivileged
// user (#17: the ring's claims hold for both); cli, when set, is the
// agent CLI (in the env's agentDir) that nobody must be able to run.
func asUsers(t *testing.T, mk func(t *testing.T) *env, cli string, fn func(t *testing.T, e *env)) {
	t.Run("root", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("not root: the unprivileged case runs as this user")
		}
		fn(t, mk(t))
	})
	t.Run("unprivileged", func(t *testing.T) {
		e := mk(t)
		if os.Getuid() == 0 {
			if cli != "" {
				canRunAsNobody(t, e.agentDir, cli)
			}
			e.unprivileged()
		}
		fn(t, e)
	})
}

// unsafePointer is the ioctl argument's address.
func unsafePointer(b *byte) unsafe.Pointer { return unsafe.Pointer(b) }

// nobody is the unprivileged user of the tests run as root.
const nobody = 65534

// unprivileged makes e run lite-sandbox (and the host-side probes) as
// nobody: its whole tree belongs to nobody, again before every launch
// (files the test writes later are root's).
func (e *env) unprivileged() {
	e.t.Helper()
	e.cred = &syscall.Credential{Uid: nobody, Gid: nobody}
	e.chownTree()
	// t.TempDir's parents are root's and 0700.
	for d := filepath.Dir(filepath.Dir(e.ws)); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
}

// chownTree gives e's tree to e's user.
func (e *env) chownTree() {
	e.t.Helper()
	if e.cred == nil {
		return
	}
	err := filepath.Walk(filepath.Dir(e.ws), func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(e.cred.Uid), int(e.cred.Gid))
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

// credential makes cmd run as e's user.
func (e *env) credential(cmd *exec.Cmd) {
	if e.cred == nil {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = e.cred
}
