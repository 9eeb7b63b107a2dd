// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
	"github.com/lite-sandbox/lite-sandbox/internal/hostprobe"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// Escape classes of docs/security-model.md §5 against both backends
// (#28), each with its control: the rows of "Which backend holds each
// class" that were checked by hand under Landlock.

// linkClassesScript tries classes 2 (a grant of ~/.sshx must not reach
// ~/.ssh), 4 (a symlink in the workspace to ~/.ssh) and 6 (a hard link
// to a file in ~/.ssh); beside each, its control: the granted ~/.sshx
// read directly and through a symlink, a hard link inside the
// workspace. $1 is the home.
const linkClassesScript = `cat "$1/.sshx/pub" && echo read-sshx-ok
cat "$1/.ssh/id_rsa" 2>/dev/null && echo LEAK-2
ln -s "$1/.ssh" k && cat k/id_rsa 2>/dev/null && echo LEAK-4
ln -s "$1/.sshx" kx && cat kx/pub >/dev/null && echo symlink-granted-ok
ln "$1/.ssh/id_rsa" g 2>/dev/null && echo LINKED-6
cat g 2>/dev/null && echo LEAK-6
echo a > a && ln a b && echo hardlink-ok
true
`

// TestLinkClassesBothBackends (classes 2, 4, 6): under both backends,
// as root and (scripts/test) as nobody, a grant of ~/.sshx does not
// reach ~/.ssh (the deny list off, so that only the grant's comparison
// holds it), a symlink to ~/.ssh reads nothing and a hard link to its
// key is not made (Landlock: EXDEV, linking from an ungranted
// hierarchy); the controls (the granted directory, directly and through
// a link, and a hard link inside the workspace) work in the same run,
// and the same script on the host reads and links everything.
func TestLinkClassesBothBackends(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			home, ws := fakeHome(t)
			mustWriteFile(t, filepath.Join(home, ".sshx", "pub"), "SSHX-GRANTED\n")
			// Control: on the host the script reads and links everything.
			hostDir := filepath.Join(home, "hostctl")
			if err := os.Mkdir(hostDir, 0o755); err != nil {
				t.Fatal(err)
			}
			host := exec.Command("/bin/sh", "-c", linkClassesScript, "sh", home)
			host.Dir = hostDir
			out, _ := host.CombinedOutput()
			for _, want := range []string{"LEAK-2", "LEAK-4", "LINKED-6", "LEAK-6", sshCanary} {
				if !strings.Contains(string(out), want) {
					t.Fatalf("control: the script on the host lacks %q:\n%s", want, out)
				}
			}
			s := specFor(t, ws, home, func(s *sandbox.Spec) {
				s.Read = append(s.Read, filepath.Join(home, ".sshx"))
				s.Deny = nil
			})
			r := runConfined(t, b, s, runOpts{}, linkClassesScript, home)
			for _, bad := range []string{"LEAK-", "LINKED-6", sshCanary} {
				if strings.Contains(r.stdout+r.stderr, bad) {
					t.Errorf("%q inside: %v", bad, r)
				}
			}
			for _, want := range []string{"SSHX-GRANTED", "read-sshx-ok", "symlink-granted-ok", "hardlink-ok"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("no %q (the positive control): %v", want, r)
				}
			}
			if _, err := os.Lstat(filepath.Join(ws, "g")); err == nil {
				t.Error("the hard link to ~/.ssh/id_rsa is in the host's workspace")
			}
		})
	}
}

// hostProcessScript tries class 22 on the host process $1: its
// environment through /proc, a signal (0, then STOP); the control: a
// process of the sandbox's own is signalled.
const hostProcessScript = `tr '\0' '\n' < /proc/$1/environ 2>/dev/null
kill -0 $1 2>/dev/null && echo SIGNALLED-22
kill -STOP $1 2>/dev/null && echo STOPPED-22
sleep 30 & c=$!
kill $c && echo own-kill-ok
`

// TestHostProcessBothBackends (class 22): under both backends, as root
// and as nobody, a command cannot read a host process's environment
// (/proc/<pid>/environ: bwrap's PID namespace hides it; Landlock's
// ptrace rule refuses it) nor signal it (Landlock's signal scope, ABI
// 6), and the host process is not stopped; the controls: the test
// itself reads the process's environment, and the command signals a
// process of its own.
func TestHostProcessBothBackends(t *testing.T) {
	t.Parallel()
	const canary = "LITE-SANDBOX-CANARY-environ-9c2e71"
	for _, b := range backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			if b.Name == sandbox.BackendLandlock && b.ABI < 6 {
				t.Skip("class 22 row: the signal scope needs Landlock ABI 6")
			}
			home, ws := fakeHome(t)
			sleep := exec.Command("sleep", "60")
			sleep.Env = append(os.Environ(), "LS_TEST_SECRET="+canary)
			if err := sleep.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { sleep.Process.Kill(); sleep.Wait() }()
			pid := strconv.Itoa(sleep.Process.Pid)
			// Until sleep has exec'd, /proc shows the test's own
			// environment (the fork's): wait for the canary, with a deadline.
			var env []byte
			var err error
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if env, err = os.ReadFile("/proc/" + pid + "/environ"); err != nil || strings.Contains(string(env), canary) {
					break
				}
			}
			if err != nil || !strings.Contains(string(env), canary) {
				t.Fatalf("control: the host cannot read the process's environment: %v", err)
			}
			r := runConfined(t, b, specFor(t, ws, home, nil), runOpts{}, hostProcessScript, pid)
			if strings.Contains(r.stdout+r.stderr, canary) || strings.Contains(r.stdout, "-22") {
				t.Errorf("the host process's environment read or signalled: %v", r)
			}
			if !strings.Contains(r.stdout, "own-kill-ok") {
				t.Errorf("control: the command could not signal its own process: %v", r)
			}
			if st, err := os.ReadFile("/proc/" + pid + "/stat"); err != nil || strings.Contains(string(st), ") T ") {
				t.Errorf("the host process: %q, %v; want it running", st, err)
			}
		})
	}
}

// TestKernelSettingsBothBackends (class 52): under both backends no
// file under /proc/sys opens for writing and kernel.core_pattern and
// kernel.hostname are refused, also where the user grants /proc/sys
// for writing or /sys for reading; as root, where the host control (the
// same walk outside any sandbox) finds core_pattern writable, and as
// nobody. Beside it the workspace is written in the same run, and the
// walk covered files (it ran). agents/e2etest's TestKernelFilesReadOnly
// runs the whole of /proc and /sys through run, a shim and a session.
func TestKernelSettingsBothBackends(t *testing.T) {
	t.Parallel()
	if os.Getuid() == 0 {
		if host := hostprobe.WalkWritable("/proc/sys/kernel", 100000); !strings.Contains(strings.Join(host.Writable, " "), "/proc/sys/kernel/core_pattern") {
			t.Fatalf("control: as root the host's core_pattern does not open for writing: %+v", host)
		}
	}
	for _, b := range backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			home, ws := fakeHome(t)
			exe := probeCopy(t, home)
			for _, c := range []struct {
				name   string
				adjust func(s *sandbox.Spec)
				roots  []string
			}{
				{"default", nil, []string{"/proc/sys"}},
				{"write grant of /proc/sys", func(s *sandbox.Spec) { s.Write = append(s.Write, "/proc/sys") }, []string{"/proc/sys"}},
				{"read grant of /sys", func(s *sandbox.Spec) { s.Read = append(s.Read, "/sys") }, []string{"/proc/sys", "/sys/kernel"}},
			} {
				s := specFor(t, ws, home, c.adjust)
				s.Read = append(s.Read, exe)
				r := probeIn(t, b, s, exe, hostprobe.Spec{Roots: c.roots, Workspace: ws, Sysctl: true, WriteSame: true, Out: filepath.Join(ws, "report.json")})
				if r.Workspace != "yes" {
					t.Errorf("%s: control: the workspace is not writable: %s", c.name, r.Workspace)
				}
				for root, w := range r.Walks {
					if len(w.Writable) > 0 || w.Truncated || w.Err != "" || w.Files < 10 {
						t.Errorf("%s: %s: %d files, %d writable (%q...), truncated %v, err %q", c.name, root, w.Files, len(w.Writable), w.Writable[:min(5, len(w.Writable))], w.Truncated, w.Err)
					}
				}
				if !strings.HasPrefix(r.CorePattern, "no") || !strings.HasPrefix(r.Hostname, "no") {
					t.Errorf("%s: core_pattern %s, hostname %s: want both refused", c.name, r.CorePattern, r.Hostname)
				}
			}
		})
	}
}

// mustWriteFile writes data at p, making its directory.
func mustWriteFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// guardClassesScript writes to protected paths that exist: the
// core.hooksPath target (class 11: a hook changed, a new one added),
// .gitmodules (class 37), .claude/settings.json (class 14) and
// .vscode/tasks.json (class 15); each prints WROTE-N when its write
// landed inside; then the positive control, a new file in the
// workspace.
const guardClassesScript = `(echo 'echo pwned' >> .githooks/pre-commit) 2>/dev/null && echo WROTE-11
(echo 'echo pwned' > .githooks/post-checkout) 2>/dev/null && echo WROTE-11new
(printf '[submodule "x"]\n\tpath = x\n\turl = /tmp/evil\n' >> .gitmodules) 2>/dev/null && echo WROTE-37
(echo '{"hooks":{"pwned":1}}' > .claude/settings.json) 2>/dev/null && echo WROTE-14
(echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json) 2>/dev/null && echo WROTE-15
echo ok > work.txt && echo ws-write-ok
`

// TestGuardClassesBothBackends (classes 11, 14, 15, 37): under both
// backends, as root and as nobody, the host's hooksPath target,
// .gitmodules, .claude/settings.json and .vscode/tasks.json are
// byte-identical after a command wrote to each, and no new hook is left
// in the hooksPath target. bwrap: read-only binds (the writes fail).
// Landlock: the writes land inside (the WROTE- lines, the control that
// the script's writes work) and the launcher's guard puts each back
// from its copy (reported as restored); a write in the workspace works
// under both.
func TestGuardClassesBothBackends(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		".githooks/pre-commit":  "#!/bin/sh\nexit 0\n",
		".gitmodules":           "",
		".claude/settings.json": `{"permissions":{}}` + "\n",
		".vscode/tasks.json":    `{"tasks":[]}` + "\n",
	}
	for _, b := range backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			home, ws := fakeHome(t)
			newRepo(t, ws)
			for rel, data := range files {
				mustWriteFile(t, filepath.Join(ws, rel), data)
			}
			gitHost(t, ws, "config", "core.hooksPath", ".githooks")
			r, moved := runConfinedQ(t, b, specFor(t, ws, home, nil), runOpts{}, guardClassesScript)
			landed := b.Name == sandbox.BackendLandlock
			for _, c := range []string{"11", "11new", "37", "14", "15"} {
				got := strings.Contains(r.stdout, "WROTE-"+c+"\n")
				// Under Landlock the guard may already be putting back
				// .githooks (changed by class 11's write just before)
				// when the new hook is written, which then fails: seen
				// under load. Either way no new hook is left (below).
				if c == "11new" && landed && !got {
					continue
				}
				if got != landed {
					t.Errorf("class %s: the write landed inside: %v, want %v: %v", c, got, landed, r)
				}
			}
			if !strings.Contains(r.stdout, "ws-write-ok") {
				t.Errorf("control: no write in the workspace: %v", r)
			}
			for rel, want := range files {
				if got, err := os.ReadFile(filepath.Join(ws, rel)); err != nil || string(got) != want {
					t.Errorf("the host's %s: %q, %v; want it unchanged", rel, got, err)
				}
			}
			if _, err := os.Lstat(filepath.Join(ws, ".githooks", "post-checkout")); err == nil {
				t.Error("a new hook is left in the hooksPath target")
			}
			if !landed {
				return
			}
			t.Logf("the guard: %+v", moved)
			for _, rel := range []string{".githooks", ".gitmodules", ".claude", ".vscode"} {
				found := false
				for _, q := range moved {
					found = found || (q.Restored && hostpath.Within(filepath.Join(ws, rel), q.Path))
				}
				if !found {
					t.Errorf("%s: not reported as restored: %+v", rel, moved)
				}
			}
		})
	}
}
