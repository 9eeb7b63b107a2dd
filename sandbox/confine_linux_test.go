// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox_test

import (
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// python is the interpreter the kernel-surface probes use.
func python(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/python3", "/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no /usr/bin/python3 for the probes")
	return ""
}

func randomName(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// connectScript connects to the address in $1 (host:port, or a Unix
// socket path; a leading @ is abstract) and prints CONNECTED or the error.
const connectScript = `
import socket, sys
a = sys.argv[1]
try:
    if ":" in a and not a.startswith("/") and not a.startswith("@"):
        h, p = a.rsplit(":", 1)
        s = socket.create_connection((h, int(p)), timeout=3)
    else:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        s.connect("\0" + a[1:] if a.startswith("@") else a)
    print("CONNECTED")
except OSError as e:
    print("FAILED", e.errno, e)
`

// acceptAll accepts and closes connections until l is closed.
func acceptAll(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// TestNetworkConfinement: with the network off a host listener on
// loopback is unreachable (classes 19, 20); with it open, the same
// listener is reachable (positive control), while host abstract Unix
// sockets (Landlock scope, class 19) and sockets in $XDG_RUNTIME_DIR
// (not mounted, classes 16 to 18) are not.
func TestNetworkConfinement(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	py := python(t)
	home, ws := fakeHome(t)
	script := filepath.Join(ws, "connect.py")
	if err := os.WriteFile(script, []byte(connectScript), 0o644); err != nil {
		t.Fatal(err)
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	go acceptAll(tcp)

	// network = "host": the host's network shared (open has its own
	// namespace now, docs/egress.md "network = open").
	open := specFor(t, ws, home, func(s *sandbox.Spec) { s.Network = policy.NetworkHost })
	off := specFor(t, ws, home, func(s *sandbox.Spec) { s.Network = policy.NetworkOff })

	t.Run("tcp to host loopback", func(t *testing.T) {
		if r := runConfined(t, b, open, runOpts{}, py+` connect.py "$1"`, tcp.Addr().String()); !strings.Contains(r.stdout, "CONNECTED") {
			t.Fatalf("positive control: network open, host listener unreachable: %v", r)
		}
		if r := runConfined(t, b, off, runOpts{}, py+` connect.py "$1"`, tcp.Addr().String()); !strings.Contains(r.stdout, "FAILED") {
			t.Errorf("network off, host listener reachable: %v", r)
		}
	})

	t.Run("abstract unix socket of the host", func(t *testing.T) { networkAbstractSocket(t, b, py, script, open, off) })

	t.Run("socket under XDG_RUNTIME_DIR", func(t *testing.T) {
		dir, err := os.MkdirTemp("/run", "lite-sandbox-test-")
		if err != nil {
			dir = t.TempDir() // not root: a private directory elsewhere
		}
		defer os.RemoveAll(dir)
		sock := filepath.Join(dir, "bus")
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go acceptAll(l)
		c, err := net.DialTimeout("unix", sock, time.Second)
		if err != nil {
			t.Fatalf("positive control: host cannot reach %s: %v", sock, err)
		}
		c.Close()
		r := runConfined(t, b, open, runOpts{env: []string{"XDG_RUNTIME_DIR=" + dir}}, py+` connect.py "$1"; test -e /run && echo RUN-MOUNTED`, sock)
		if !strings.Contains(r.stdout, "FAILED") {
			t.Errorf("host socket in XDG_RUNTIME_DIR reachable: %v", r)
		}
		if strings.Contains(r.stdout, "RUN-MOUNTED") {
			t.Errorf("/run is visible inside (docker, D-Bus and agent sockets live there): %v", r)
		}
	})
}

// networkAbstractSocket is TestNetworkConfinement/abstract unix socket of the host.
func networkAbstractSocket(t *testing.T, b sandbox.Backend, py, script string, open, off sandbox.Spec) {
	if k := confine.Probe(); !k.Scoped {
		t.Skipf("no Landlock scopes on this kernel: %s", k.LandlockWhy)
	}
	name := "@lite-sandbox-test-" + randomName(t)
	l, err := net.Listen("unix", name)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go acceptAll(l)
	c, err := net.DialTimeout("unix", name, time.Second)
	if err != nil {
		t.Fatalf("positive control: host cannot reach its own abstract socket: %v", err)
	}
	c.Close()
	r := runConfined(t, b, open, runOpts{}, py+` connect.py "$1"`, name)
	if !strings.Contains(r.stdout, "FAILED") {
		t.Errorf("host abstract socket reachable with the network open: %v", r)
	}
	// Sockets made inside the sandbox stay usable there.
	r = runConfined(t, b, open, runOpts{}, py+` -c '
import socket
s = socket.socket(socket.AF_UNIX); s.bind("\0inside-`+randomName(t)+`"); s.listen()
c = socket.socket(socket.AF_UNIX); c.connect(s.getsockname()); print("INSIDE OK")'`)
	if !strings.Contains(r.stdout, "INSIDE OK") {
		t.Errorf("abstract socket inside the sandbox unusable: %v", r)
	}
}

// tiocsti is TestKernelSurface's probe. It starts a session of its own
// (inside the PID namespace the command is not a session leader, and
// bwrap's init is), takes the pty as its controlling terminal and
// injects a keystroke: without the filter the kernel lets it (measured;
// EIO only when dev.tty.legacy_tiocsti is 0), so the EPERM comes from
// the filter.
const tiocsti = `
import fcntl, termios, os, errno
try:
    os.setsid()
except OSError as e:
    print("SETSID", e.errno)
try:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
except OSError as e:
    print("SCTTY", e.errno)
for name, req in (("TIOCSTI", termios.TIOCSTI), ("TIOCLINUX", 0x541C)):
    try:
        fcntl.ioctl(0, req, b"x" if name == "TIOCSTI" else b"\x02")
        print(name, "OK")
    except OSError as e:
        print(name, "ERRNO", e.errno)
`

// TestKernelSurface: terminal injection, nested user namespaces,
// ptrace and the host's SysV IPC are out of reach (classes 21, 22, 24,
// 25). Each check has a positive control on the host where one makes
// sense, so that a probe that cannot work never passes vacuously.
func TestKernelSurface(t *testing.T) {
	t.Parallel()
	b := requireBwrap(t)
	py := python(t)
	home, ws := fakeHome(t)
	base := specFor(t, ws, home, nil)

	t.Run("TIOCSTI and TIOCLINUX", func(t *testing.T) { kernelTIOCSTI(t, b, py, ws, base) })

	t.Run("nested user namespace", func(t *testing.T) {
		if _, err := exec.LookPath("unshare"); err != nil {
			t.Skip("no unshare")
		}
		r := runConfined(t, b, base, runOpts{}, `unshare -U true && echo NESTED; unshare -Ur true && echo NESTED`)
		if r.code == 0 || strings.Contains(r.stdout, "NESTED") {
			t.Errorf("unshare -U succeeded inside: %v", r)
		}
	})

	t.Run("ptrace and process_vm_readv", func(t *testing.T) {
		r := runConfined(t, b, base, runOpts{}, py+` -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
print("ptrace", libc.ptrace(0, 0, 0, 0), ctypes.get_errno())
'`)
		if !strings.Contains(r.stdout, "ptrace -1 1") {
			t.Errorf("ptrace not refused with EPERM: %v", r)
		}
	})

	t.Run("host SysV shared memory invisible", func(t *testing.T) {
		if _, err := exec.LookPath("ipcmk"); err != nil {
			t.Skip("no ipcmk")
		}
		out, err := exec.Command("ipcmk", "-M", "1024").CombinedOutput()
		if err != nil {
			t.Skipf("ipcmk: %v %s", err, out)
		}
		f := strings.Fields(string(out))
		id := f[len(f)-1]
		defer exec.Command("ipcrm", "-m", id).Run()
		host, _ := exec.Command("ipcs", "-m").CombinedOutput()
		if !strings.Contains(string(host), " "+id+" ") {
			t.Fatalf("positive control: segment %s not listed on the host:\n%s", id, host)
		}
		r := runConfined(t, b, base, runOpts{}, `ipcs -m`)
		if strings.Contains(r.stdout, " "+id+" ") {
			t.Errorf("host segment %s visible inside: %v", id, r)
		}
	})
}

// kernelTIOCSTI is TestKernelSurface/TIOCSTI and TIOCLINUX.
func kernelTIOCSTI(t *testing.T, b sandbox.Backend, py, ws string, base sandbox.Spec) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := os.WriteFile(filepath.Join(ws, "tiocsti.py"), []byte(tiocsti), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runConfined(t, b, base, runOpts{stdin: tty}, `exec `+py+` tiocsti.py`)
	eperm := "ERRNO " + strconv.Itoa(1)
	if !strings.Contains(r.stdout, "TIOCSTI "+eperm) || !strings.Contains(r.stdout, "TIOCLINUX "+eperm) {
		t.Errorf("ioctls not refused with EPERM by the filter: %v", r)
	}
	if os.Geteuid() != 0 {
		return
	}
	// Positive control: on the host (root, no filter) the same probe
	// injects a keystroke.
	ptmx2, tty2, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx2.Close()
	defer tty2.Close()
	cmd := exec.Command(py, filepath.Join(ws, "tiocsti.py"))
	cmd.Stdin = tty2
	cmd.SysProcAttr = newSessionAttr()
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "TIOCSTI OK") {
		t.Logf("positive control inconclusive (the host refuses TIOCSTI too): %v %s", err, out)
	}
	// The injected keystroke is readable on the master.
	ptmx2.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 16)
	if n, _ := ptmx2.Read(buf); n == 0 {
		t.Logf("positive control: nothing injected on the host either")
	}
}
