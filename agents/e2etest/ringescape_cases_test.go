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

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The tests of the #17 escape classes; the probes they run are in
// ringescape_test.go.

// TestRingProc: no host process is visible in the ring, and no
// /proc/PID/root leads into the host (class 40). The control: on the
// host the probe sees the test's own process.
func TestRingProc(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		e.write("~/.bashrc", "# the user's\n")
		args := map[string]string{"target": filepath.Join(e.home, ".bashrc"), "hostpid": strconv.Itoa(os.Getpid())}
		host := e.runProbe("proc", false, map[string]string{"target": "/nonexistent/x", "hostpid": args["hostpid"]})
		expect(t, "host", host, map[string]string{"host_pid_visible": "yes", "self": "yes"})
		f := e.runProbe("proc", true, args)
		expect(t, "ring", f, map[string]string{"pid1": "bwrap", "host_pid_visible": "no", "self": "yes"})
		if n, _ := strconv.Atoi(f["procs"]); n == 0 || n > 5 {
			t.Errorf("the ring's /proc shows %d processes (want its own few): %v", n, f)
		}
		// A write through /proc/PID/root lands in the ring's own scratch
		// home at most (named at the end), never in the host's file.
		if b, _ := os.ReadFile(args["target"]); string(b) != "# the user's\n" {
			t.Errorf("the ring wrote the host's ~/.bashrc (last write through %s): %q", f["wrote_via"], b)
		}
	})
}

// TestRingDaemon: a process of the ring that makes a session of its own
// dies with the session, before the placeholders go (class 41): it
// never writes the protected .envrc after the session, and no process
// of it is left on the host. In bwrap's ring and in the Landlock ring of
// the simulated container (#28), which has no PID namespace: there the
// pty leader, the ring's subreaper, kills every process below it. The
// control: the daemon ran (it wrote its pid inside the session).
func TestRingDaemon(t *testing.T) {
	backendUsers(t, func(t *testing.T, e *env, backend string) {
		// The daemon lasts longer than the test's hang guard: a session
		// that waited for it instead of ending it would fail there.
		args := map[string]string{"alive": filepath.Join(e.ws, "daemon-alive"), "plant": filepath.Join(e.ws, ".envrc"), "last": "10m"}
		f := e.runRingProbe(backend, "daemon", args)
		expect(t, "ring", f, map[string]string{"started": "yes", "alive": "yes"})
		readFile(t, args["alive"])
		if backend == "landlock" {
			// The Landlock ring's guard takes .envrc away after each
			// write (with a window; docs/limits.md): the last one may
			// still be quarantined at the end. None may come after.
			os.Remove(args["plant"])
		}
		// Give it a second past the end.
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(args["plant"]); err == nil {
				t.Fatalf("a ring process outlived the session and wrote %s", args["plant"])
			}
			time.Sleep(50 * time.Millisecond)
		}
		// Its pid is the ring's (the host's, under Landlock); on the
		// host it is found by its environment, which names this test's
		// workspace.
		if left := ringSurvivors(args["plant"]); len(left) > 0 {
			t.Errorf("the daemon is still alive after the session: %v", left)
		}
	})
}

// TestRingLauncherKilled: a launcher killed with SIGKILL takes every
// process of its ring with it, the one that made a session of its own
// too (class 41): in bwrap's ring through its PID namespace, in the
// Landlock ring of the simulated container because the pty leader
// catches its parent's death and kills all below it. The control: the
// daemon ran, and was found on the host, before the kill.
func TestRingLauncherKilled(t *testing.T) {
	backendUsers(t, func(t *testing.T, e *env, backend string) {
		args := map[string]string{"alive": filepath.Join(e.ws, "daemon-alive"), "plant": filepath.Join(e.ws, ".envrc"), "hold": "1"}
		cmd := e.ringCommand(backend, probeSpec{Mode: "daemon", Out: filepath.Join(e.ws, ".probe-held.json"), Args: args})
		// Its output, for the failure: a file, read while it runs.
		out, err := os.Create(filepath.Join(t.TempDir(), "launch.out"))
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		for end := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(args["alive"]); err == nil {
				break
			}
			if time.Now().After(end) {
				cmd.Process.Kill()
				b, _ := os.ReadFile(out.Name())
				t.Fatalf("the daemon never ran (the control):\n%s", b)
			}
		}
		if len(ringSurvivors(args["plant"])) == 0 {
			t.Fatal("the ring's processes are not found on the host (the control)")
		}
		// In the simulated container unshare and sh exec, so this is
		// the launcher too.
		cmd.Process.Signal(syscall.SIGKILL)
		var left []string
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if left = ringSurvivors(args["plant"]); len(left) == 0 {
				break
			}
		}
		if len(left) > 0 {
			t.Errorf("ring processes outlived the killed launcher: %v", left)
		}
		checkSwept(t, e, args["plant"])
	})
}

// checkSwept: the guard of the missing .envrc died with the launcher
// (#31): what a ring process wrote there before it died (the window of
// docs/limits.md, "Protected paths that do not exist") is moved to
// quarantine by the next sandbox of the workspace, with a line, and
// nothing writes it after that.
func checkSwept(t *testing.T, e *env, plant string) {
	t.Helper()
	_, planted := os.Lstat(plant)
	_, errs, code := e.run(nil, "true")
	if code != 0 {
		t.Fatalf("the next run: exit %d\n%s", code, errs)
	}
	if _, err := os.Lstat(plant); err == nil {
		t.Errorf("%s is still on the host after the next sandbox started", plant)
	}
	if planted == nil && !strings.Contains(errs, plant+" is a protected path") {
		t.Errorf("no quarantine line for %s:\n%s", plant, errs)
	}
	time.Sleep(300 * time.Millisecond)
	if b, err := os.ReadFile(plant); err == nil {
		t.Errorf("a ring process wrote %s after the launcher was killed and the sweep: %q", plant, b)
	}
}

// ringSurvivors lists the host's processes whose environment names
// marker (the probe and its daemon carry it in their spec).
func ringSurvivors(marker string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), marker) && strings.Contains(string(b), escapeProbeEnv) {
			st, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "stat"))
			out = append(out, strings.TrimSpace(string(st)))
		}
	}
	return out
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestRingTTY: with stdin not a terminal (claude -p < /dev/null) and
// the user's terminal as stdout, a ring process can neither open the
// controlling terminal nor push a keystroke into the terminal (class
// 21). The control: the same probe on the host, in a session whose
// terminal that is, does push it.
func TestRingTTY(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		host := e.probeOnTerminal(t, false)
		expect(t, "host", host, map[string]string{"open_tty": "yes", "tiocsti": "yes", "injected": "yes"})
		f := e.probeOnTerminal(t, true)
		expect(t, "ring", f, map[string]string{"open_tty": "no", "tiocsti": "no", "injected": "no"})
	})
}

// probeOnTerminal runs the tty probe (in the ring through launch exec,
// or directly) as the leader of a session whose controlling terminal is
// a fresh pty, with stdin /dev/null and stdout the pty; "injected"
// says whether a byte reached the terminal's input.
func (e *env) probeOnTerminal(t *testing.T, ring bool) map[string]string {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if e.cred != nil {
		os.Chown(tty.Name(), nobody, nobody)
	}
	out := filepath.Join(e.ws, ".probe-tty-"+strconv.FormatBool(ring)+".json")
	b, _ := json.Marshal(probeSpec{Mode: "tty", Out: out})
	argv := []string{probeBinary}
	if ring {
		argv = []string{binary, "launch", "--sandbox", "on", "exec", "--", probeBinary}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = e.ws
	cmd.Env = append(append([]string{}, e.vars...), escapeProbeEnv+"="+string(b))
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	e.credential(cmd)
	if err := runWithin(cmd, 60*time.Second); err != nil {
		t.Fatalf("tty probe (ring %v): %v", ring, err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("tty probe (ring %v) wrote no findings: %v", ring, err)
	}
	f := map[string]string{}
	json.Unmarshal(raw, &f)
	// An injected byte sits in the terminal's input queue.
	n, _ := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ)
	f["injected"] = "no"
	if n > 0 {
		f["injected"] = "yes"
	}
	return f
}

// runWithin runs cmd with a hang guard.
func runWithin(cmd *exec.Cmd, d time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		return fmt.Errorf("hung for %v", d)
	}
}

// TestRingReads: reads are by allow-list in the ring (class 43): other
// agents' credentials, ~/.pgpass, shell history, a sibling project's
// .env and /etc/shadow are absent, and the agent's environment holds no
// secret (GITHUB_TOKEN) it does not log in with. The control: the
// workspace, git identity and a path granted with agent.read are read;
// on the host every path is readable.
func TestRingReads(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		secrets := []string{"~/.codex/auth.json", "~/.pi/agent/auth.json", "~/.pgpass", "~/.bash_history", "../sibling/.env"}
		needed := []string{"~/.gitconfig", "~/.granted/notes", "readme.txt"}
		var paths []string
		for _, p := range append(append([]string{}, secrets...), needed...) {
			e.write(p, "x\n")
			paths = append(paths, e.abs(p))
		}
		e.write("~/.config/lite-sandbox/config.toml", "[agent]\nread = [\"~/.granted\"]\n")
		e.vars = append(e.vars, "LITE_SANDBOX_CONFIG="+e.abs("~/.config/lite-sandbox/config.toml"))
		if e.cred != nil {
			e.unprivileged() // the files written above
		}
		args := map[string]string{"paths": strings.Join(paths, "\n"), "token": "GITHUB_TOKEN=", "login": "LITE_SANDBOX_SESSION="}
		host := e.runProbe("reads", false, args, "GITHUB_TOKEN=ghp-secret-9d1e")
		ring := e.runProbe("reads", true, args, "GITHUB_TOKEN=ghp-secret-9d1e")
		for i, p := range paths {
			expect(t, "host", host, map[string]string{"read:" + p: "yes"})
			want := "yes"
			if i < len(secrets) {
				want = "no"
			}
			expect(t, "ring", ring, map[string]string{"read:" + p: want})
		}
		if os.Getuid() == 0 && e.cred == nil {
			expect(t, "host", e.runProbe("reads", false, map[string]string{"paths": "/etc/shadow"}), map[string]string{"read:/etc/shadow": "yes"})
		}
		expect(t, "ring", e.runProbe("reads", true, map[string]string{"paths": "/etc/shadow"}), map[string]string{"read:/etc/shadow": "no"})
		expect(t, "host", host, map[string]string{"environ_has_token": "true"})
		expect(t, "ring", ring, map[string]string{"environ_has_token": "false", "environ_has_login": "true"})
	})
}

// abs is the host path of a workspace-relative or ~/ path.
func (e *env) abs(rel string) string {
	if strings.HasPrefix(rel, "~/") {
		return filepath.Join(e.home, rel[2:])
	}
	return filepath.Join(e.ws, rel)
}

// TestRingIPC: the host's IPC is absent from the ring (class 44): a
// socket in the user's runtime directory (an ssh agent's, tmux's), an
// abstract socket (X11, D-Bus), the host's /dev/shm and the user's
// processes; SSH_AUTH_SOCK is dropped. The control: on the host the
// probe connects to both, sees the shm file and signals the test.
func TestRingIPC(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		sockPath := filepath.Join(filepath.Dir(e.ws), "run", "ssh-agent.sock")
		l, err := net.Listen("unix", sockPath)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if e.cred != nil {
			os.Chown(sockPath, nobody, nobody)
		}
		abstract := "@lite-sandbox-test-" + strconv.Itoa(os.Getpid()) + "-" + filepath.Base(filepath.Dir(e.ws))
		la, err := net.Listen("unix", abstract)
		if err != nil {
			t.Fatal(err)
		}
		defer la.Close()
		for _, ln := range []net.Listener{l, la} {
			go func(ln net.Listener) {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					c.Close()
				}
			}(ln)
		}
		shm := filepath.Join("/dev/shm", "lite-sandbox-test-"+filepath.Base(filepath.Dir(e.ws)))
		if err := os.WriteFile(shm, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(shm)
		// The signal target: a process of the same user outside the ring.
		sleeper := exec.Command("sleep", "30")
		e.credential(sleeper)
		if err := sleeper.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
		args := map[string]string{"sock": sockPath, "abstract": abstract, "shm": shm, "hostpid": strconv.Itoa(sleeper.Process.Pid)}
		host := e.runProbe("ipc", false, args, "SSH_AUTH_SOCK="+sockPath)
		expect(t, "host", host, map[string]string{"connect:sock": "yes", "connect:abstract": "yes", "shm": "yes", "signal": "yes"})
		ring := e.runProbe("ipc", true, args, "SSH_AUTH_SOCK="+sockPath)
		expect(t, "ring", ring, map[string]string{"connect:sock": "no", "connect:abstract": "no", "shm": "no", "signal": "no"})
		if ring["ssh_auth_sock"] != "" {
			t.Errorf("SSH_AUTH_SOCK reached the ring: %q", ring["ssh_auth_sock"])
		}
	})
}

// fsmonName is the name under which this test binary acts as a
// repository's core.fsmonitor program (class 47): it runs the route
// probe with the spec in the file beside it.
const fsmonName = "fsmon-probe"

// fsmonProbe is TestMain's entry for fsmonName.
func fsmonProbe() int {
	b, err := os.ReadFile(os.Args[0] + ".spec")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return ringProbe(string(b))
}

// TestRingGit: a program a repository names (core.fsmonitor, here a
// binary, so no shell is involved) and that the agent's own git runs
// (Claude's start-up git status) runs in the command sandbox, not in the
// ring (class 47): git in the ring is the shim. The control: the same
// git status on the host runs it on the host.
func TestRingGit(t *testing.T) {
	users(t, func(t *testing.T, e *env) {
		e.sentinel()
		// As root in nobody's tree git wants the directory declared safe.
		if out, err := exec.Command("git", "-c", "safe.directory=*", "init", "-q", e.ws).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
		prog := filepath.Join(e.ws, fsmonName)
		b, err := os.ReadFile(probeBinary)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(prog, b, 0o755)
		spec := func(name string) {
			os.WriteFile(prog+".spec", []byte(strings.Join([]string{e.home, e.ws, filepath.Dir(e.ws), name}, "\n")), 0o644)
		}
		if out, err := exec.Command("git", "-c", "safe.directory=*", "-C", e.ws, "config", "core.fsmonitor", prog).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v: %s", err, out)
		}
		if e.cred != nil {
			e.unprivileged()
		}
		spec("git-host")
		host := exec.Command("git", "status", "--short")
		host.Dir = e.ws
		host.Env = append(append([]string{}, e.vars...), "GIT_CONFIG_GLOBAL=/dev/null")
		e.credential(host)
		if out, err := host.CombinedOutput(); err != nil {
			t.Fatalf("git status on the host: %v\n%s", err, out)
		}
		if why := e.sandboxed("git-host"); !strings.Contains(why, "PID 1") {
			t.Fatalf("the host's git did not run the fsmonitor on the host (the control): %q (facts %v)", why, e.probeFacts("git-host"))
		}
		spec("git-ring")
		out, errs, code := e.launch("exec", nil, "/usr/bin/git", "status", "--short")
		if code != 0 {
			t.Logf("git status in the ring: exit %d\n%s\n%s", code, out, errs)
		}
		e.checkProbe("git-ring", out, errs)
	})
}
