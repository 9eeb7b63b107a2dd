// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The neighbourhood of TestOpenNetwork: three network
// namespaces this test makes (the host's real network is never touched).
// "host" is where lite-sandbox runs: its own addresses 45.33.0.1 (a
// public-looking /32) and 192.168.50.1 (its LAN), a default route to
// "inet" and a route to the metadata address. "inet" is the internet,
// 93.184.0.2 (off the host's networks), and beyond the same gateway a
// private address, 10.99.0.2 (off the host's networks too: only the
// special-range routes keep it out). "lan" is a LAN host, 192.168.50.2,
// and the metadata address 169.254.169.254 (routed, as in a cloud).
type hood struct {
	host, inet, lan int // PIDs of the processes holding the namespaces
}

// probes are the destinations the probe script tries, as label, address
// and port; the internet's are the only ones open reaches.
var probes = []struct {
	label, addr string
	internet    bool
	// viaStack is a destination only the user-space stack knows (its
	// gateway, 10.0.2.2, which leads to the host's loopback unless
	// slirp4netns is told not to): its control is host-loopback's,
	// the same server on the host.
	viaStack bool
}{
	{"inet-ssh", "93.184.0.2:22", true, false},
	{"inet-http", "93.184.0.2:80", true, false},
	{"lan", "192.168.50.2:80", false, false},
	{"metadata", "169.254.169.254:80", false, false},
	{"host-loopback", "127.0.0.1:8080", false, false},
	{"host-loopback-via-gateway", "10.0.2.2:8080", false, true},
	{"host-addr", "45.33.0.1:8081", false, false},
	{"host-lan-addr", "192.168.50.1:8081", false, false},
	{"private-beyond-gateway", "10.99.0.2:80", false, false},
}

// TestOpenNetwork (#27, point 2): under network = "open"
// (the default) a command, through the real lite-sandbox run and a
// session command (launch exec), as root and as nobody, reaches a test
// internet host directly (a TCP service on 22 standing for ssh, HTTP
// with curl, npm install from a registry there) with bash's /dev/tcp, a
// tool that ignores the proxy variables; and none of the neighbourhood:
// the host's loopback, its own addresses, a LAN host, the metadata
// address. Controls: the same probe bare in the same namespace, and
// under network = "host" (the opt-out, which also prints its warning),
// reaches every one of them.
func TestOpenNetwork(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("the test makes its network namespaces as root")
	}
	for _, p := range []string{"slirp4netns", "ip", "unshare", "nsenter", "curl"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (scripts/deps installs slirp4netns)", p)
		}
	}
	h := newHood(t)
	reg := h.servers(t)
	users(t, func(t *testing.T, e *env) {
		h.enter(e)
		e.write("probe.sh", probeScript())
		e.write("~/.npmrc", "registry="+reg.url+"/\n")
		e.write("package.json", `{"name":"app","version":"1.0.0","dependencies":{"lite-sandbox-issue27-dep":"^1.0.0"}}`)
		checkBare(t, e)
		for _, where := range []string{"run", "session"} {
			out, errs, code := h.probe(e, where, nil)
			if code != 0 {
				t.Fatalf("%s: probe.sh: exit %d\n%s\n%s", where, code, out, errs)
			}
			for _, p := range probes {
				reached := reached(out, p.label)
				if p.internet && !reached {
					t.Errorf("%s, open: the internet host %s (%s) was not reached\n%s\n%s", where, p.addr, p.label, out, errs)
				}
				if !p.internet && reached {
					t.Errorf("%s, open: %s (%s) was reached\n%s", where, p.addr, p.label, out)
				}
			}
			if !strings.Contains(out, "curl=") || !strings.Contains(out, `"name":"lite-sandbox-issue27-dep"`) {
				t.Errorf("%s, open: curl from the internet host failed\n%s\n%s", where, out, errs)
			}
			if strings.Contains(errs, "warning: network") {
				t.Errorf("%s, open: a warning about the host's network was printed\n%s", where, errs)
			}
		}
		h.npmInstall(t, e)
		// The opt-out: network = "host" shares the host's network, and
		// says so.
		out, errs, code := h.probe(e, "run", []string{"--network", "host"})
		for _, p := range probes {
			if !p.viaStack && (code != 0 || !reached(out, p.label)) {
				t.Errorf("control, network host: %s (%s) not reached: exit %d\n%s\n%s", p.addr, p.label, code, out, errs)
			}
		}
		if !strings.Contains(errs, `warning: network = "host"`) {
			t.Errorf("network host: no warning line\n%s", errs)
		}
	})
}

// reached says whether the probe script's line for label got a server's
// answer.
func reached(out, label string) bool {
	return strings.Contains("\n"+out, "\n"+label+"=REACHED ")
}

// probeScript connects to every probe with bash's /dev/tcp (no proxy
// variables involved) and prints label=the first line it got, then
// fetches the package document with curl.
func probeScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	for _, p := range probes {
		host, port, _ := net.SplitHostPort(p.addr)
		fmt.Fprintf(&b, "echo \"%s=$(timeout 20 bash -c 'exec 3<>/dev/tcp/%s/%s && head -n1 <&3' 2>&1)\"\n", p.label, host, port)
	}
	b.WriteString("echo \"curl=$(curl -sS --max-time 20 http://93.184.0.2/lite-sandbox-issue27-dep 2>&1)\"\n")
	return b.String()
}

// checkBare is the positive control: the probe script bare, as e's
// user in the host namespace, reaches every destination.
func checkBare(t *testing.T, e *env) {
	t.Helper()
	e.chownTree()
	cmd := exec.Command("bash", "probe.sh")
	cmd.Dir, cmd.Env = e.ws, e.vars
	e.credential(cmd)
	e.wrap(cmd)
	out, err := cmd.CombinedOutput()
	for _, p := range probes {
		if !p.viaStack && (err != nil || !reached(string(out), p.label)) {
			t.Fatalf("control: bare, %s (%s) was not reached: %v\n%s", p.addr, p.label, err, out)
		}
	}
}

// probe runs probe.sh through lite-sandbox run (with extra options) or
// in a session (launch exec: the shell is the session's shim).
func (h *hood) probe(e *env, where string, opts []string) (string, string, int) {
	if where == "session" {
		return e.launch("exec", nil, "/bin/sh", "-c", "bash probe.sh")
	}
	args := append(append([]string{"run", "--sandbox", "on"}, opts...), "--", "bash", "probe.sh")
	return e.lite(nil, args...)
}

// npmInstall: npm install from the internet host's registry under open
// writes the lock file with the package (npm ignores nothing here: it
// has no proxy variables to honour under open).
func (h *hood) npmInstall(t *testing.T, e *env) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Log("npm is not installed: npm install not tried")
		return
	}
	e.setPath(filepath.Dir(npm))
	out, errs, code := e.run(nil, "sh", "-c", "npm install --no-audit --no-fund --no-update-notifier")
	lock, _ := os.ReadFile(filepath.Join(e.ws, "package-lock.json"))
	if code != 0 || !strings.Contains(string(lock), "http://93.184.0.2/lite-sandbox-issue27-dep/-/") {
		t.Errorf("open: npm install from the internet host: exit %d\n%s\n%s\nlock:\n%s", code, out, errs, lock)
	}
}

// enter makes e's lite-sandbox (and bare) commands start inside the
// host namespace: nsenter as root (then as nobody for the unprivileged
// case). For nobody, /dev/net/tun is a mode 0666 node in a mount
// namespace of the command's own, as Debian's udev makes it (this
// machine's is 0600); the host's /dev is untouched.
func (h *hood) enter(e *env) {
	cred := e.cred
	e.wrap = func(cmd *exec.Cmd) {
		nsenter, _ := exec.LookPath("nsenter")
		args := []string{nsenter, fmt.Sprintf("--net=/proc/%d/ns/net", h.host)}
		if cred != nil {
			args = append(args, fmt.Sprintf("--setuid=%d", cred.Uid), fmt.Sprintf("--setgid=%d", cred.Gid))
		}
		args = append(append(args, "--", cmd.Path), cmd.Args[1:]...)
		if cred != nil {
			unshare, _ := exec.LookPath("unshare")
			mount, _ := exec.LookPath("mount")
			mknod, _ := exec.LookPath("mknod")
			args = append([]string{unshare, "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
				mount + ` -t tmpfs -o mode=0755 tmpfs /dev/net && ` + mknod + ` -m 0666 /dev/net/tun c 10 200 && exec "$@"`, "sh"}, args...)
		}
		cmd.Path, cmd.Args = args[0], args
		if cmd.SysProcAttr != nil {
			cmd.SysProcAttr.Credential = nil
		}
	}
}

// newHood makes the three namespaces and their links.
func newHood(t *testing.T) *hood {
	t.Helper()
	h := &hood{host: holder(t), inet: holder(t), lan: holder(t)}
	I, L := strconv.Itoa(h.inet), strconv.Itoa(h.lan)
	for _, c := range []struct {
		pid  int
		args string
	}{
		{h.host, "link add hi type veth peer name ih netns " + I},
		{h.host, "link add hl type veth peer name lh netns " + L},
		{h.host, "link set lo up"},
		{h.host, "addr add 45.33.0.1/32 dev hi"},
		{h.host, "link set hi up"},
		{h.host, "route add default dev hi"},
		{h.host, "addr add 192.168.50.1/24 dev hl"},
		{h.host, "link set hl up"},
		{h.host, "route add 169.254.169.254/32 dev hl"},
		{h.inet, "link set lo up"},
		{h.inet, "addr add 93.184.0.2/32 dev ih"},
		{h.inet, "addr add 10.99.0.2/32 dev ih"},
		{h.inet, "link set ih up"},
		{h.inet, "route add 45.33.0.1/32 dev ih"},
		{h.lan, "link set lo up"},
		{h.lan, "addr add 192.168.50.2/24 dev lh"},
		{h.lan, "addr add 169.254.169.254/32 dev lh"},
		{h.lan, "link set lh up"},
	} {
		cmd := exec.Command("nsenter", append([]string{fmt.Sprintf("--net=/proc/%d/ns/net", c.pid), "--", "ip"}, strings.Fields(c.args)...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v\n%s", c.args, err, out)
		}
	}
	return h
}

// holder starts a process in a new network namespace and waits until
// it is there (never configure the namespace before: it would be the
// host's).
func holder(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("unshare", "--net", "--", "sleep", "infinity")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	self, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", cmd.Process.Pid))
		ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", cmd.Process.Pid))
		if strings.TrimSpace(string(comm)) == "sleep" && err == nil && ns != self {
			return cmd.Process.Pid
		}
	}
	t.Fatal("the namespace holder did not start")
	return 0
}

// servers starts the test's servers, each listening in its namespace:
// every TCP one answers "REACHED label"; the internet's port 80 is an
// npm registry whose unknown paths answer the same.
func (h *hood) servers(t *testing.T) *fakeRegistry {
	t.Helper()
	var reg *fakeRegistry
	for _, p := range probes {
		pid := map[bool]int{true: h.inet, false: h.lan}[p.internet]
		switch {
		case strings.HasPrefix(p.label, "host"):
			pid = h.host
		case p.label == "private-beyond-gateway":
			pid = h.inet
		}
		addr := p.addr
		if p.viaStack {
			continue // served by host-loopback's listener
		}
		if strings.HasPrefix(p.label, "host-") && p.label != "host-loopback" {
			if p.label != "host-addr" {
				continue // one listener on every address of the host
			}
			addr = "0.0.0.0:8081"
		}
		l := listenIn(t, pid, addr)
		if p.label == "inet-http" {
			reg = newFakeRegistryOn(t, "lite-sandbox-issue27-dep", answering{l, p.label})
			continue
		}
		go serveLabel(l, p.label)
	}
	return reg
}

// answering is a listener whose connections that send nothing (bash's
// /dev/tcp probe) still get the label: it hands HTTP to the registry
// only when the client speaks first.
type answering struct {
	net.Listener
	label string
}

func (a answering) Accept() (net.Conn, error) {
	for {
		c, err := a.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, 1)
		n, _ := c.Read(buf)
		c.SetReadDeadline(time.Time{})
		if n == 0 {
			fmt.Fprintf(c, "REACHED %s\n", a.label)
			c.Close()
			continue
		}
		return &prefixed{c, buf[:n]}, nil
	}
}

// prefixed gives back the byte answering read.
type prefixed struct {
	net.Conn
	head []byte
}

func (p *prefixed) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.Conn.Read(b)
}

func serveLabel(l net.Listener, label string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		fmt.Fprintf(c, "REACHED %s\n", label)
		c.Close()
	}
}

// listenIn listens on addr inside the network namespace of pid.
func listenIn(t *testing.T, pid int, addr string) net.Listener {
	t.Helper()
	var l net.Listener
	err := inNetNS(pid, func() (err error) {
		l, err = net.Listen("tcp", addr)
		return err
	})
	if err != nil {
		t.Fatalf("listen on %s in the namespace of %d: %v", addr, pid, err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestOpenNetworkWithoutStack (#27): through the real lite-sandbox run,
// as root and as nobody. slirp4netns missing: the command runs on the
// host's network, as documented, and a warning line says so (the
// host's loopback listener is reached: the degrade is real, not
// silent). slirp4netns failing: the command does not run at all (its
// marker file is not made) and the error names the stack; control: with
// the real stack the same command runs and makes its marker.
func TestOpenNetworkWithoutStack(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("the unprivileged case needs a /dev/net/tun node of its own, made as root")
	}
	real, err := exec.LookPath("slirp4netns")
	if err != nil {
		t.Skip("slirp4netns is not installed (scripts/deps installs it)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go serveLabel(l, "host-loopback")
	_, port, _ := net.SplitHostPort(l.Addr().String())
	users(t, func(t *testing.T, e *env) {
		(&hood{host: os.Getpid()}).enter(e)
		bin := filepath.Join(filepath.Dir(e.ws), "bin")
		for _, name := range []string{"bwrap", "nsenter", "setpriv"} {
			p, err := exec.LookPath(name)
			if err != nil {
				t.Skipf("%s not found", name)
			}
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p, filepath.Join(bin, name)); err != nil {
				t.Fatal(err)
			}
		}
		e.vars = append(e.vars, "PATH="+bin)
		probe := "/usr/bin/touch ran-$1; exec 3<>/dev/tcp/127.0.0.1/" + port + " && /usr/bin/head -n1 <&3"

		out, errs, code := e.run(nil, "/bin/bash", "-c", probe, "x", "missing")
		if code != 0 || !strings.Contains(out, "REACHED host-loopback") || !strings.Contains(errs, `warning: network = "open" shares this host's network`) || !strings.Contains(errs, "slirp4netns is not installed") {
			t.Errorf("slirp4netns missing: want the command on the host's network and a warning: exit %d\n%s\n%s", code, out, errs)
		}

		mustWrite(t, filepath.Join(bin, "slirp4netns"), "#!/bin/sh\necho fake-stack-failure >&2\nexit 1\n")
		if err := os.Chmod(filepath.Join(bin, "slirp4netns"), 0o755); err != nil {
			t.Fatal(err)
		}
		out, errs, code = e.run(nil, "/bin/bash", "-c", probe, "x", "failing")
		if _, err := os.Stat(filepath.Join(e.ws, "ran-failing")); err == nil || code == 0 || strings.Contains(out, "REACHED") {
			t.Errorf("slirp4netns failing: the command ran: exit %d\n%s\n%s", code, out, errs)
		}
		if !strings.Contains(errs, "slirp4netns did not start: fake-stack-failure") {
			t.Errorf("slirp4netns failing: no error naming it:\n%s", errs)
		}

		os.Remove(filepath.Join(bin, "slirp4netns"))
		if err := os.Symlink(real, filepath.Join(bin, "slirp4netns")); err != nil {
			t.Fatal(err)
		}
		out, errs, code = e.run(nil, "/bin/bash", "-c", probe, "x", "real")
		if _, err := os.Stat(filepath.Join(e.ws, "ran-real")); err != nil || strings.Contains(out, "REACHED") || strings.Contains(errs, "warning") {
			t.Errorf("control, the real stack: the command did not run, or reached the host's loopback: exit %d\n%s\n%s", code, out, errs)
		}
	})
}
