// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-sandbox/lite-sandbox/internal/netroute"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
)

// userNet is what [Prepared.Start] needs to connect a sandbox's own
// namespace to the internet (usernet.go).
type userNet struct {
	program string         // slirp4netns
	helper  string         // our binary, for the route helper when the namespace has a user namespace of its own
	routes  []netip.Prefix // prohibited in the sandbox's namespace
}

// Start starts cmd, a command built from p.Path and p.Args, and under
// network = "open" with a user-space stack connects the sandbox's
// network namespace before the command inside runs: bwrap waits on a
// descriptor (--block-fd) until slirp4netns has configured the
// namespace and the prohibit routes are in. Call stop after cmd has
// exited. On an error nothing is left running.
func (p *Prepared) Start(cmd *exec.Cmd) (stop func(), err error) {
	if p == nil || p.net == nil {
		return func() {}, cmd.Start()
	}
	infoR, infoW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("user network: %w", err)
	}
	defer infoR.Close()
	blockR, blockW, err := os.Pipe()
	if err != nil {
		infoW.Close()
		return nil, fmt.Errorf("user network: %w", err)
	}
	defer blockW.Close()
	n := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(slices.Clip(cmd.ExtraFiles), infoW, blockR)
	cmd.Args = slices.Concat(cmd.Args[:1], []string{"--info-fd", strconv.Itoa(n), "--block-fd", strconv.Itoa(n + 1)}, cmd.Args[1:])
	err = cmd.Start()
	infoW.Close()
	blockR.Close()
	if err != nil {
		return nil, err
	}
	pid, err := childPID(infoR)
	if err == nil {
		stop, err = p.net.connect(pid)
	}
	if err == nil {
		_, err = blockW.Write([]byte{1})
		if err != nil {
			stop()
		}
	}
	if err != nil {
		// Killed before it is released (bwrap's child waits on the
		// block descriptor and would run the command on its end of
		// file): the command never runs unconnected (fail closed).
		killSandbox(pid)
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("user network: %w", err)
	}
	return stop, nil
}

// childPID reads the sandbox's PID from bwrap's info descriptor.
func childPID(info io.Reader) (int, error) {
	var msg struct {
		Pid int `json:"child-pid"`
	}
	if err := json.NewDecoder(info).Decode(&msg); err != nil || msg.Pid <= 0 {
		return 0, fmt.Errorf("bwrap gave no sandbox PID: %v", err)
	}
	return msg.Pid, nil
}

// killSandbox kills bwrap's child, which is still blocked before the
// command. Its PID is free for reuse only once bwrap has reaped it, and
// bwrap reaps it only on its way out, which the caller's kill of bwrap
// then finds done; killing bwrap alone is not enough (the child would
// read the end of file of the block descriptor and run the command).
func killSandbox(pid int) {
	if pid > 0 {
		unix.Kill(pid, unix.SIGKILL)
	}
}

// connect starts the stack on the namespace of the sandbox pid and adds
// the routes.
func (u *userNet) connect(pid int) (stop func(), err error) {
	// bwrap's child sets up the namespace's loopback (RTM_NEWADDR, then
	// up) before it reads the block descriptor, concurrently with this:
	// the stack and the routes wait for it, or bwrap's setup fails
	// ("loopback: Failed RTM_NEWADDR") on a busy machine.
	if err := waitLoopback(pid, 30*time.Second); err != nil {
		return nil, err
	}
	netns, err := os.Open(fmt.Sprintf("/proc/%d/ns/net", pid))
	if err != nil {
		return nil, err
	}
	defer netns.Close()
	// The user namespace that owns the network namespace (bwrap's
	// outer one when it runs unprivileged); nil when it is ours.
	userns, err := owner(netns)
	if err != nil {
		return nil, err
	}
	if userns != nil {
		defer userns.Close()
	}
	stop, err = u.startStack(netns, userns)
	if err != nil {
		return nil, err
	}
	if userns == nil {
		err = prohibitIn(netns, u.routes)
	} else if err = waitIDMap(pid, 30*time.Second); err == nil {
		err = u.prohibitVia(netns, userns)
	}
	if err != nil {
		stop()
		return nil, fmt.Errorf("prohibit routes: %w", err)
	}
	return stop, nil
}

// owner returns the user namespace owning netns, or nil when it is
// this process's own.
func owner(netns *os.File) (*os.File, error) {
	fd, err := unix.IoctlRetInt(int(netns.Fd()), unix.NS_GET_USERNS)
	if err != nil {
		return nil, fmt.Errorf("owner of the network namespace: %w", err)
	}
	f := os.NewFile(uintptr(fd), "userns")
	var a, b unix.Stat_t
	if err := unix.Fstat(fd, &a); err != nil {
		f.Close()
		return nil, err
	}
	if err := unix.Stat("/proc/self/ns/user", &b); err == nil && a.Ino == b.Ino && a.Dev == b.Dev {
		f.Close()
		return nil, nil
	}
	return f, nil
}

// startStack starts slirp4netns on netns and waits until it has
// configured it. Its exit descriptor ends it when stop closes it or
// this process dies.
func (u *userNet) startStack(netns, userns *os.File) (stop func(), err error) {
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer readyR.Close()
	exitR, exitW, err := os.Pipe()
	if err != nil {
		readyW.Close()
		return nil, err
	}
	// The stack parses the sandbox's packets: it confines itself with
	// seccomp, and as root also in a mount namespace of its own
	// (--enable-sandbox; in bwrap's user namespace it cannot, having no
	// uid 0 there).
	args := []string{u.program, "--configure", "--mtu=65520", "--disable-host-loopback", "--enable-seccomp",
		"--ready-fd=3", "--exit-fd=4", "--netns-type=path"}
	files := []*os.File{readyW, exitR, netns}
	if userns != nil {
		args = append(args, "--userns-path=/proc/self/fd/6")
		files = append(files, userns)
	} else {
		args = append(args, "--enable-sandbox")
	}
	args = append(args, "/proc/self/fd/5", userNetDev)
	var errBuf bytes.Buffer
	c := &exec.Cmd{Path: u.program, Args: args, ExtraFiles: files, Stdout: io.Discard, Stderr: &errBuf,
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}}
	err = c.Start()
	readyW.Close()
	exitR.Close()
	if err != nil {
		exitW.Close()
		return nil, err
	}
	stop = func() {
		exitW.Close()
		c.Wait()
	}
	if _, err := io.ReadFull(readyR, make([]byte, 1)); err != nil {
		c.Process.Kill()
		stop()
		return nil, fmt.Errorf("%s did not start: %s", UserNetProgram, bytes.TrimSpace(errBuf.Bytes()))
	}
	return stop, nil
}

// prohibitIn adds the routes from a thread of this process that joins
// netns and is never used again (its goroutine keeps it locked and
// returns, so the runtime ends the thread).
func prohibitIn(netns *os.File, ps []netip.Prefix) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := unix.Setns(int(netns.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("join the sandbox's network namespace: %w", err)
			return
		}
		errc <- netroute.Prohibit(ps)
	}()
	return <-errc
}

// prohibitVia adds the routes through our helper command, started by
// nsenter in the owning user namespace (a Go process cannot join a user
// namespace itself: it has threads). nsenter holds every capability
// there, but our user is not that namespace's root (bwrap maps it to
// itself), so an execve would drop them: setpriv passes CAP_NET_ADMIN,
// and only it, to the helper as an ambient capability. No setgroups
// (--preserve-credentials): bwrap's namespace denies it.
func (u *userNet) prohibitVia(netns, userns *os.File) error {
	var tools [2]string
	for i, name := range []string{"nsenter", "setpriv"} {
		p, err := exec.LookPath(name)
		if err != nil {
			return fmt.Errorf("%s (util-linux) is needed to configure an unprivileged sandbox's network", name)
		}
		tools[i] = p
	}
	if u.helper == "" {
		return errors.New("no helper binary for the routes")
	}
	args := []string{tools[0], "--preserve-credentials", "--user=/proc/self/fd/3", "--net=/proc/self/fd/4", "--",
		tools[1], "--inh-caps=-all,+net_admin", "--ambient-caps=-all,+net_admin", "--bounding-set=-all,+net_admin", "--",
		u.helper, netroute.Command}
	for _, p := range u.routes {
		args = append(args, p.String())
	}
	var out bytes.Buffer
	c := &exec.Cmd{Path: tools[0], Args: args, ExtraFiles: []*os.File{userns, netns}, Stdout: &out, Stderr: &out}
	if err := c.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, bytes.TrimSpace(out.Bytes()))
	}
	return nil
}

// withUserNet completes the layout of a sandbox under network = "open"
// with its stack: /etc/resolv.conf names the stack's DNS forwarder (the
// host's own may name a loopback or LAN resolver, both prohibited), and
// returns what Start needs. The helper is our binary when argv runs the
// confinement step through it.
func withUserNet(s Spec, ms []Mount, argv []string) ([]Mount, *userNet, error) {
	host, err := hostPrefixes()
	if err != nil {
		return nil, nil, fmt.Errorf("the host's addresses: %w", err)
	}
	u := &userNet{program: s.UserNet, routes: prohibitedPrefixes(host, s.Exempt)}
	if len(argv) > 1 && argv[1] == confine.Command {
		u.helper = argv[0]
	}
	dir := privateDir()
	if dir == "" {
		return nil, nil, errors.New("no private directory for resolv.conf")
	}
	conf := contentFile(dir, "nameserver "+userNetDNS+"\n")
	if conf == "" {
		return nil, nil, errors.New("cannot write resolv.conf")
	}
	ms = slices.DeleteFunc(slices.Clone(ms), func(m Mount) bool { return m.Dst == "/etc/resolv.conf" })
	return insertBeforeRemount(ms, Mount{Kind: ROBind, Src: conf, Dst: "/etc/resolv.conf"}), u, nil
}

// hostPrefixes are the host's interface addresses with their prefixes.
func hostPrefixes() ([]netip.Prefix, error) {
	as, err := net.InterfaceAddrs()
	if err != nil {
		return nil, err
	}
	var out []netip.Prefix
	for _, a := range as {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// tunUsable says why the stack could not open /dev/net/tun, or "". Some
// systems leave it 0600 (no udev rule making it 0666, as Debian's does).
func tunUsable() string {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Sprintf("/dev/net/tun cannot be opened by this user (%v); "+UserNetProgram+" needs it", err)
	}
	unix.Close(fd)
	return ""
}

// waitLoopback waits until the network namespace of pid has a local
// address (bwrap's 127.0.0.1 on lo, the only one before the stack's
// interface exists), up to the deadline d.
func waitLoopback(pid int, d time.Duration) error {
	trie := fmt.Sprintf("/proc/%d/net/fib_trie", pid)
	deadline := time.Now().Add(d)
	for {
		b, err := os.ReadFile(trie)
		if err != nil {
			return fmt.Errorf("sandbox's loopback: %w", err)
		}
		if bytes.Contains(b, []byte("/32 host LOCAL")) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sandbox's loopback: not up after %v", d)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitIDMap waits until the user namespace of the sandbox pid has its
// uid and gid maps. bwrap's child writes them itself when it runs
// unprivileged, concurrently with this, and it holds its capabilities
// there before they are written (the loopback can be up first): a
// helper that joins the namespace before then is unmapped, so its exec
// of setpriv drops every capability ("setpriv: apply capabilities:
// Operation not permitted", seen under load). Once pid has moved to
// bwrap's inner namespace, the outer one's maps were written before it.
func waitIDMap(pid int, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		written := true
		for _, name := range []string{"uid_map", "gid_map"} {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, name))
			if err != nil {
				return fmt.Errorf("sandbox's user namespace: %w", err)
			}
			written = written && len(bytes.TrimSpace(b)) > 0
		}
		if written {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sandbox's user namespace: no uid and gid map after %v", d)
		}
		time.Sleep(time.Millisecond)
	}
}
