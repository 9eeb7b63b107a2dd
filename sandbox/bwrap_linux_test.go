// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

// The subtests of TestBwrapSandbox (integration_linux_test.go), one
// function each.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// bwrapWriteInWorkspace is TestBwrapSandbox/write in workspace.
func bwrapWriteInWorkspace(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	r := run(t, b, base, `printf inside > "$1/out.txt" && cat README`, ws)
	if r.code != 0 || r.stdout != "hello\n" {
		t.Fatalf("write or read in the workspace failed: %v", r)
	}
	data, err := os.ReadFile(filepath.Join(ws, "out.txt"))
	if err != nil || string(data) != "inside" {
		t.Fatalf("host sees %q, %v; want %q", data, err, "inside")
	}
}

// bwrapWriteOutsideFails is TestBwrapSandbox/write outside fails.
func bwrapWriteOutsideFails(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	suffix := filepath.Base(home)
	for _, p := range []string{
		filepath.Join(home, "outside.txt"), // escape class 8
		filepath.Join(home, ".bashrc"),
		filepath.Join(filepath.Dir(home), suffix+"-sibling"),
		"/usr/lite-sandbox-" + suffix,
		"/etc/lite-sandbox-" + suffix,
		"/lite-sandbox-" + suffix,
	} {
		if _, err := os.Lstat(p); err == nil {
			t.Fatalf("%s exists before the test", p)
		}
		t.Cleanup(func() { os.Remove(p) })
		r := run(t, b, base, `printf x > "$1"`, p)
		// The home directory is an empty tmpfs inside: a write there
		// may succeed, but must never reach the host.
		if r.code == 0 && !strings.HasPrefix(p, home+"/") {
			t.Errorf("write to %s succeeded inside: %v", p, r)
		}
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s appeared on the host", p)
		}
	}
}

// bwrapSecretsUnreadable is TestBwrapSandbox/secrets unreadable.
func bwrapSecretsUnreadable(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	for _, c := range []struct {
		script, arg, canary string
	}{
		{`cat "$1"`, filepath.Join(home, ".ssh/id_rsa"), sshCanary}, // escape class 1
		{`cat "$1"`, filepath.Join(home, "secret.txt"), secretCanary},
		{`cat "$1"`, filepath.Join(home, ".netrc"), netrcCanary},
		{`cat "$1"/.ssh/* "$1"/*.txt`, home, secretCanary},
	} {
		r := run(t, b, base, c.script, c.arg)
		if r.code == 0 || strings.Contains(r.stdout+r.stderr, c.canary) {
			t.Errorf("%s %s: readable inside: %v", c.script, c.arg, r)
		}
		// Positive control: with the home granted and no deny list,
		// the same command does see the canary.
		open := specFor(t, ws, home, func(s *sandbox.Spec) { s.Read = []string{home}; s.Deny = nil })
		if r := run(t, b, open, c.script, c.arg); !strings.Contains(r.stdout, c.canary) {
			t.Errorf("control: %s %s with the home granted: %v", c.script, c.arg, r)
		}
	}
	// Listing the home shows only the path down to the workspace, and
	// the sandbox's copy of the git configuration (issue #31).
	r := run(t, b, base, `ls -A "$1"`, home)
	if r.code != 0 || r.stdout != ".gitconfig\nproject\n" {
		t.Errorf("home lists %v inside, want only the workspace and .gitconfig", r)
	}
	open := specFor(t, ws, home, func(s *sandbox.Spec) { s.Read = []string{home}; s.Deny = nil })
	if r := run(t, b, open, `ls -A "$1"`, home); !strings.Contains(r.stdout, "secret.txt") {
		t.Errorf("control: home listing with the home granted: %v", r)
	}

	r = run(t, b, base, `cat /etc/shadow`)
	if r.code == 0 || strings.Contains(r.stdout, "root:") {
		t.Errorf("/etc/shadow readable inside: %v", r)
	}
	if data, err := os.ReadFile("/etc/shadow"); err == nil && !strings.Contains(string(data), "root:") {
		t.Log("control: host /etc/shadow has no root entry")
	}
}

// bwrapEtcAllowList is TestBwrapSandbox/etc allow-list readable.
func bwrapEtcAllowList(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	r := run(t, b, base, `cat /etc/passwd`)
	if r.code != 0 || !strings.Contains(r.stdout, "root:") {
		t.Errorf("/etc/passwd not readable: %v", r)
	}
	const ca = "/etc/ssl/certs/ca-certificates.crt"
	if _, err := os.Stat(ca); err != nil {
		t.Logf("no %s on the host, CA check skipped", ca)
		return
	}
	r = run(t, b, base, `cat "$1"`, ca)
	if r.code != 0 || !strings.Contains(r.stdout, "BEGIN CERTIFICATE") {
		t.Errorf("CA store not readable: %v", r)
	}
}

// bwrapPrivateTmp is TestBwrapSandbox/private tmp.
func bwrapPrivateTmp(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	f, err := os.CreateTemp("/tmp", "ls-sandbox-marker-")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Cleanup(func() { os.Remove(f.Name()) })
	r := run(t, b, base, `test -e "$1" && echo VISIBLE; ls -A /tmp; printf x > /tmp/inside && echo TMPOK`, f.Name())
	if strings.Contains(r.stdout, "VISIBLE") || strings.Contains(r.stdout, filepath.Base(f.Name())) {
		t.Errorf("host /tmp visible inside: %v", r)
	}
	if !strings.Contains(r.stdout, "TMPOK") {
		t.Errorf("sandbox /tmp not writable: %v", r)
	}
	if _, err := os.Stat("/tmp/inside"); err == nil {
		t.Error("/tmp/inside appeared on the host")
	}
}

// bwrapHostProcessesInvisible is TestBwrapSandbox/host processes invisible.
func bwrapHostProcessesInvisible(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	sleep := exec.Command("sleep", "30")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleep.Process.Kill(); sleep.Wait() }()
	pid := strconv.Itoa(sleep.Process.Pid)
	if _, err := os.Stat("/proc/" + pid); err != nil {
		t.Fatalf("control: host pid %s not in host /proc: %v", pid, err)
	}
	if sleep.Process.Pid < 20 {
		t.Skipf("host pid %s is too small to tell apart from sandbox pids", pid)
	}
	// Escape classes 7 and 22.
	r := run(t, b, base, `test -e /proc/$1 && echo VISIBLE; kill -0 $1 2>/dev/null && echo KILLABLE; ls /proc | grep -c '^[0-9][0-9]*$'`, pid)
	if strings.Contains(r.stdout, "VISIBLE") || strings.Contains(r.stdout, "KILLABLE") {
		t.Errorf("host process visible inside: %v", r)
	}
	lines := strings.Fields(r.stdout)
	n, err := strconv.Atoi(lines[len(lines)-1])
	if err != nil || n < 1 || n > 6 {
		t.Errorf("sandbox /proc has %q pids, want a handful: %v", lines, r)
	}
}

// bwrapNoCapabilities is TestBwrapSandbox/no capabilities.
func bwrapNoCapabilities(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	r := run(t, b, base, `grep '^CapEff:' /proc/self/status`)
	if r.code != 0 || !strings.Contains(r.stdout, "0000000000000000") {
		t.Errorf("capabilities inside: %v", r)
	}
	if os.Getuid() == 0 {
		host, _ := os.ReadFile("/proc/self/status")
		if strings.Contains(string(host), "CapEff:\t0000000000000000") {
			t.Log("control: the test runs as root without capabilities")
		}
	}
}

// bwrapWorkspaceUnderTmp is TestBwrapSandbox/workspace under tmp wins.
func bwrapWorkspaceUnderTmp(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	tws, err := os.MkdirTemp("/tmp", "ls-sandbox-ws-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tws) })
	s := specFor(t, tws, home, nil)
	r := run(t, b, s, `printf tmpws > "$1/f" && ls -A /tmp`, tws)
	if r.code != 0 || strings.TrimSpace(r.stdout) != filepath.Base(tws) {
		t.Errorf("want only the workspace in /tmp: %v", r)
	}
	if data, err := os.ReadFile(filepath.Join(tws, "f")); err != nil || string(data) != "tmpws" {
		t.Errorf("host sees %q, %v", data, err)
	}
}

// bwrapOddWorkspacePath is TestBwrapSandbox/odd workspace path.
func bwrapOddWorkspacePath(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	for _, name := range []string{`we"ird) dir`, "we\"ird) dir\nwith newline"} {
		ows := filepath.Join(home, name)
		if err := os.Mkdir(ows, 0o755); err != nil {
			t.Fatal(err)
		}
		s := specFor(t, ows, home, nil)
		r := run(t, b, s, `pwd; printf odd > f`)
		if r.code != 0 || r.stdout != ows+"\n" {
			t.Errorf("%q: %v", name, r)
		}
		if data, err := os.ReadFile(filepath.Join(ows, "f")); err != nil || string(data) != "odd" {
			t.Errorf("%q: host sees %q, %v", name, data, err)
		}
	}
}

// bwrapDenyMasksHomeWorkspace is TestBwrapSandbox/deny masks with home workspace.
func bwrapDenyMasksHomeWorkspace(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	s := specFor(t, home, home, nil)
	if bad, _ := sandbox.Degraded(s.Workspace, home); !bad {
		t.Fatal("workspace == home is not degraded")
	}
	r := run(t, b, s, `cat .ssh/id_rsa; ls -A .ssh; printf x > .ssh/planted; cat .netrc; echo END`)
	if strings.Contains(r.stdout+r.stderr, sshCanary) || strings.Contains(r.stdout+r.stderr, netrcCanary) {
		t.Errorf("masked credential readable: %v", r)
	}
	if !strings.HasSuffix(r.stdout, "END\n") || strings.TrimSpace(strings.TrimSuffix(r.stdout, "END\n")) != "" {
		t.Errorf("want no output before END: %v", r)
	}
	if _, err := os.Stat(filepath.Join(home, ".ssh/planted")); err == nil {
		t.Error("write into the masked ~/.ssh reached the host")
	}
	// Positive control: the rest of the home is mounted.
	if r := run(t, b, s, `cat secret.txt`); !strings.Contains(r.stdout, secretCanary) {
		t.Errorf("control: home not mounted as workspace: %v", r)
	}
}

// bwrapLinksOut is TestBwrapSandbox/symlink and hard link out of the workspace.
func bwrapLinksOut(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	// Escape classes 4 and 6.
	r := run(t, b, base, `ln -s "$1/.ssh" x && cat x/id_rsa; ln "$1/secret.txt" g; cat g`, home)
	if strings.Contains(r.stdout+r.stderr, sshCanary) || strings.Contains(r.stdout+r.stderr, secretCanary) {
		t.Errorf("link escape: %v", r)
	}
	if _, err := os.Stat(filepath.Join(ws, "g")); err == nil {
		t.Error("hard link to a home file created")
	}
	os.Remove(filepath.Join(ws, "x"))
}

// bwrapNetworkOff is TestBwrapSandbox/network off.
func bwrapNetworkOff(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	ifaces := func(devs string) []string {
		var names []string
		for _, l := range strings.Split(devs, "\n") {
			if name, _, ok := strings.Cut(l, ":"); ok && !strings.Contains(name, "|") {
				names = append(names, strings.TrimSpace(name))
			}
		}
		slices.Sort(names)
		return names
	}
	off := specFor(t, ws, home, func(s *sandbox.Spec) { s.Network = policy.NetworkOff })
	r := run(t, b, off, `cat /proc/net/dev`)
	if got := ifaces(r.stdout); r.code != 0 || !slices.Equal(got, []string{"lo"}) {
		t.Errorf("network off: interfaces %v, want [lo]: %v", got, r)
	}
	host, err := os.ReadFile("/proc/net/dev")
	if err != nil || slices.Equal(ifaces(string(host)), []string{"lo"}) {
		t.Logf("host has only loopback (%v); open-network control skipped", err)
		return
	}
	// The control shares the host's network (network = "host"; open
	// has a namespace of its own, TestUserNet).
	shared := specFor(t, ws, home, func(s *sandbox.Spec) { s.Network = policy.NetworkHost })
	r = run(t, b, shared, `cat /proc/net/dev`)
	if got := ifaces(r.stdout); !slices.Equal(got, ifaces(string(host))) {
		t.Errorf("control: network host shows %v, host has %v", got, ifaces(string(host)))
	}
}

// bwrapArgvPassThrough is TestBwrapSandbox/argv exit status and output pass through.
func bwrapArgvPassThrough(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	r := run(t, b, base, `printf '%s|' "$@"; echo; echo to-stderr >&2; exit 7`, "a b", `c"d`, "", "e\nf")
	if r.code != 7 || r.stdout != "a b|c\"d||e\nf|\n" || r.stderr != "to-stderr\n" {
		t.Errorf("got %v", r)
	}
}

// bwrapCwd is TestBwrapSandbox/cwd.
func bwrapCwd(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	sub := filepath.Join(ws, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	s := base
	s.Cwd = sub
	if r := run(t, b, s, `pwd`); r.stdout != sub+"\n" {
		t.Errorf("pwd: %v", r)
	}
	s.Cwd = home
	_, err := sandbox.Prepare(b, s, []string{"/bin/true"})
	var se *sandbox.SetupError
	if !errors.As(err, &se) || se.Op != "cwd" {
		t.Errorf("cwd outside the workspace: err = %v, want a cwd SetupError", err)
	}
}

// bwrapRootWorkspace is TestBwrapSandbox/root workspace keeps fresh proc and masks.
func bwrapRootWorkspace(t *testing.T, b sandbox.Backend, home, ws string, base sandbox.Spec) {
	// Degraded, but escape class 7 must stay closed and ~/.ssh hidden.
	s := specFor(t, "/", home, nil)
	s.Cwd = ws
	r := run(t, b, s, `ls /proc | grep -c '^[0-9][0-9]*$'; cat "$1/.ssh/id_rsa"; cat "$1/secret.txt"`, home)
	if strings.Contains(r.stdout, sshCanary) {
		t.Errorf("~/.ssh readable with workspace /: %v", r)
	}
	if !strings.Contains(r.stdout, secretCanary) {
		t.Errorf("control: / not mounted: %v", r)
	}
	first, _, _ := strings.Cut(r.stdout, "\n")
	if n, err := strconv.Atoi(first); err != nil || n > 6 {
		t.Errorf("host /proc visible with workspace /: %v", r)
	}
}
