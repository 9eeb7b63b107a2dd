// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// The command sandbox's kept escape tests against both backends (#28):
// bwrap, and Landlock with seccomp, which needs no user namespace and
// so runs on this host too. docs/security-model.md "Which backend holds
// each class" names, per class, what holds it under Landlock; a test
// that does not apply there skips with the row that says so.

// landlockBackend returns the Landlock backend, or skips when the
// kernel has no Landlock (the backend is then never chosen).
func landlockBackend(t *testing.T) sandbox.Backend {
	t.Helper()
	if confine.Probe().LandlockABI < 1 {
		t.Skip("no Landlock on this kernel: the Landlock backend is never chosen here")
	}
	b, err := sandbox.DetectLandlock()
	if err != nil {
		t.Fatalf("Landlock present but its backend unusable: %v", err)
	}
	return b
}

// backends is the table of both backends, bwrap first.
func backends(t *testing.T) []sandbox.Backend {
	t.Helper()
	return []sandbox.Backend{requireBwrap(t), landlockBackend(t)}
}

// notUnderLandlock skips a subtest whose class the Landlock backend does
// not hold the bwrap way, naming the row of docs/security-model.md
// ("Which backend holds each class") that says so.
func notUnderLandlock(t *testing.T, b sandbox.Backend, row string) {
	t.Helper()
	if b.Name == sandbox.BackendLandlock {
		t.Skip("not under the Landlock backend: " + row)
	}
}

// TestLandlockSandbox runs TestBwrapSandbox's subtests under the
// Landlock backend, as root and (scripts/test) as nobody; each that
// does not apply skips with its class row.
func TestLandlockSandbox(t *testing.T) {
	t.Parallel()
	b := landlockBackend(t)
	home, ws := fakeHome(t)
	base := specFor(t, ws, home, nil)
	const (
		noTmp = "no private /tmp (a temp directory and TMPDIR instead; docs/confinement.md, \"The Landlock backend\")"
		noPid = "class 7 partly held, 23 and 35 not: no PID namespace, host processes visible (TestHostProcessBothBackends tests class 22)"
		noNet = "no network namespace: off is TCP by Landlock (class 20 row; TestLandlockNetworkOff in agents/e2etest)"
	)
	for _, c := range []struct {
		name string
		test func(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec)
		skip string
	}{
		{"write in workspace", bwrapWriteInWorkspace, ""},
		{"write outside fails", bwrapWriteOutsideFails, ""},
		{"secrets unreadable", landlockSecretsUnreadable, ""},
		{"etc allow-list readable", bwrapEtcAllowList, ""},
		{"private tmp", bwrapPrivateTmp, noTmp},
		{"host processes invisible", bwrapHostProcessesInvisible, noPid},
		{"no capabilities", bwrapNoCapabilities, ""},
		{"workspace under tmp wins", bwrapWorkspaceUnderTmp, noTmp},
		{"odd workspace path", bwrapOddWorkspacePath, ""},
		{"deny masks with home workspace", bwrapDenyMasksHomeWorkspace, ""},
		{"symlink and hard link out of the workspace", bwrapLinksOut, ""},
		{"network off", bwrapNetworkOff, noNet},
		{"argv exit status and output pass through", bwrapArgvPassThrough, ""},
		{"cwd", bwrapCwd, ""},
		{"root workspace keeps masks", landlockRootWorkspace, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				notUnderLandlock(t, b, c.skip)
			}
			c.test(t, b, home, ws, base)
		})
	}
}

// landlockSecretsUnreadable is bwrapSecretsUnreadable's claim under
// Landlock (class 1): the home's secrets and /etc/shadow unreadable, and
// the home not listable (refused, where bwrap shows a scratch home with
// the path down to the workspace); the control grants the home.
func landlockSecretsUnreadable(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	open := specFor(t, ws, home, func(s *sandbox.Spec) { s.Read = []string{home}; s.Deny = nil })
	for _, c := range []struct {
		script, arg, canary string
	}{
		{`cat "$1"`, filepath.Join(home, ".ssh/id_rsa"), sshCanary},
		{`cat "$1"`, filepath.Join(home, "secret.txt"), secretCanary},
		{`cat "$1"`, filepath.Join(home, ".netrc"), netrcCanary},
		{`cat "$1"/.ssh/* "$1"/*.txt`, home, secretCanary},
		{`ls -A "$1"`, home, "secret.txt"},
		{`cat /etc/shadow`, "", "root:"},
	} {
		r := run(t, b, base, c.script, c.arg)
		if strings.Contains(r.stdout+r.stderr, c.canary) {
			t.Errorf("%s %s: readable inside: %v", c.script, c.arg, r)
		}
		if c.arg == "" {
			continue // no grant shows /etc/shadow (bwrap's test has no control either)
		}
		if r := run(t, b, open, c.script, c.arg); !strings.Contains(r.stdout, c.canary) {
			t.Errorf("control: %s %s with the home granted: %v", c.script, c.arg, r)
		}
	}
}

// TestLandlockKernelSurface runs TestKernelSurface's filter checks
// under the Landlock backend, as root and as nobody: TIOCSTI and
// TIOCLINUX refused (class 21; the same pty control as bwrap's), no
// nested user namespace (class 24), no ptrace (class 22). Its SysV
// subtest is not run here: the host's segments are listed through the
// host's /proc/sysvipc (class 25 row: attaching is refused by seccomp,
// TestSeccompNoUnix in sandbox/confine).
func TestLandlockKernelSurface(t *testing.T) {
	t.Parallel()
	b := landlockBackend(t)
	py := python(t)
	home, ws := fakeHome(t)
	base := specFor(t, ws, home, nil)
	t.Run("TIOCSTI and TIOCLINUX", func(t *testing.T) { kernelTIOCSTI(t, b, py, ws, base) })
	t.Run("nested user namespace and ptrace", func(t *testing.T) {
		if _, err := exec.LookPath("unshare"); err != nil {
			t.Skip("no unshare")
		}
		// Control: the host makes a user namespace (else the check
		// inside proves nothing).
		if err := exec.Command("unshare", "-U", "true").Run(); err != nil {
			t.Skipf("control: no user namespace on the host either (%v); TestSeccompFilterDecisions covers the filter", err)
		}
		r := runConfined(t, b, base, runOpts{}, `unshare -U true 2>/dev/null && echo NESTED; unshare -Ur true 2>/dev/null && echo NESTED
`+py+` -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("ptrace", libc.ptrace(0, 0, 0, 0), ctypes.get_errno())
'; echo ran-ok`)
		if strings.Contains(r.stdout, "NESTED") || !strings.Contains(r.stdout, "ptrace -1 1") || !strings.Contains(r.stdout, "ran-ok") {
			t.Errorf("want no nested namespace, ptrace refused with EPERM, and the script run: %v", r)
		}
	})
}

// landlockRootWorkspace is bwrapRootWorkspace under Landlock (class 34,
// degraded roots): with the workspace at / the grants split each
// directory above a hidden path into one per entry, a policy of many
// grants (a crowded /tmp or /var/tmp: over the kernel's 128 KiB for one
// argument, carried in parts, confine.Landlock.Args); ~/.ssh stays
// unreadable. The control: the home's other files are read. (The
// host's /proc is visible under Landlock: no count of it here.)
func landlockRootWorkspace(t *testing.T, b sandbox.Backend, home, ws string, _ sandbox.Spec) {
	s := specFor(t, "/", home, nil)
	s.Cwd = ws
	r := run(t, b, s, `cat "$1/.ssh/id_rsa"; cat "$1/secret.txt"`, home)
	if strings.Contains(r.stdout, sshCanary) {
		t.Errorf("~/.ssh readable with workspace /: %v", r)
	}
	if !strings.Contains(r.stdout, secretCanary) {
		t.Errorf("control: / not granted: %v", r)
	}
}
