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
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRingNetNeighbours (#27): the agent ring reaches none of the
// host's neighbourhood under any sandbox.network mode. The servers are
// this test's, in the network namespaces of opennet_test.go's hood
// (each held by a process of the test and addressed by its PID, never
// a named namespace under /run/netns): a service on the host's
// loopback and on its own addresses, a LAN host, the cloud metadata
// address and a DNS server (a UDP echo on port 53 of the LAN host).
// lite-sandbox runs in the hood's "host" namespace, as root and as
// nobody. The control: the same probe bare in that namespace, as the
// same user, reaches every one of them; in the ring the probe reaches
// none, directly or through the agent's proxy (403), while the proxy
// itself answers.
//
// Named namespaces (`ip netns add`, as this test first did) were
// intermittently unusable while other tests ran beside it (setns and
// RTNETLINK "Invalid argument": the name's file under /run/netns was
// there but its bind mount was not, as happens when the mount is
// missing from the mount namespace ip runs in); a namespace held by a
// process is reached through /proc/PID/ns/net and has no mount at all.
func TestRingNetNeighbours(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("the test makes its network namespaces as root (unshare --net)")
	}
	for _, p := range []string{"slirp4netns", "ip", "unshare", "nsenter"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (scripts/deps installs slirp4netns)", p)
		}
	}
	h := newHood(t)
	tcp := map[string]int{ // each TCP neighbour and the namespace it listens in
		"127.0.0.1:8080":       h.host, // the host's loopback
		"45.33.0.1:8081":       h.host, // the host's own address
		"192.168.50.2:80":      h.lan,  // a LAN host
		"169.254.169.254:80":   h.lan,  // the metadata address
		"192.168.50.2:53":      h.lan,  // the DNS server over TCP
		"127.0.0.1:5353":       h.host, // a resolver on the host's loopback
		"192.168.50.1:8082":    h.host, // the host's LAN address
		"10.99.0.2:80":         h.inet, // a private address beyond the gateway
		"93.184.0.2:80":        h.inet, // the "internet": not the agent's either
		"93.184.0.2:22":        h.inet,
		"169.254.169.254:8080": h.lan,
	}
	for a, pid := range tcp {
		go serveBanner(listenIn(t, pid, a), a)
	}
	udp := []string{"192.168.50.2:53", "127.0.0.1:53"}
	echoIn(t, h.lan, udp[0])
	echoIn(t, h.host, udp[1])
	var targets []string
	for a := range tcp {
		targets = append(targets, a)
	}
	args := map[string]string{"tcp": strings.Join(targets, " "), "udp": strings.Join(udp, " ")}
	users(t, func(t *testing.T, e *env) {
		h.enter(e)
		bare := e.bareProbe(args)
		for _, a := range targets {
			expect(t, "control, bare in the host's namespace", bare, map[string]string{"tcp:" + a: "yes"})
		}
		for _, a := range udp {
			expect(t, "control, bare in the host's namespace", bare, map[string]string{"udp:" + a: "yes"})
		}
		ringArgs := map[string]string{"tcp": args["tcp"] + " 127.0.0.1:3128", "udp": args["udp"],
			"proxy": "127.0.0.1:3128", "connect": args["tcp"]}
		cfg := e.abs("~/.config/lite-sandbox/config.toml")
		for _, mode := range []string{"open", "allow", "off", "host"} {
			e.write("~/.config/lite-sandbox/config.toml", "[sandbox]\nnetwork = \""+mode+"\"\n")
			ring := e.runProbe("net", true, ringArgs, "LITE_SANDBOX_CONFIG="+cfg)
			want := map[string]string{"tcp:127.0.0.1:3128": "connected, but no banner"}
			for _, a := range targets {
				want["tcp:"+a], want["connect:"+a] = "no", "no: 403"
			}
			for _, a := range udp {
				want["udp:"+a] = "no"
			}
			expectRing(t, "the ring, network = "+mode, ring, want)
		}
	})
}

// bareProbe runs the net probe as e's user, outside any sandbox,
// where e's lite-sandbox runs (e.wrap: the hood's host namespace).
func (e *env) bareProbe(args map[string]string) map[string]string {
	e.t.Helper()
	out := filepath.Join(e.ws, ".probe-bare.json")
	os.Remove(out)
	b, _ := json.Marshal(probeSpec{Mode: "net", Out: out, Args: args})
	cmd := exec.Command(probeBinary)
	cmd.Dir = e.ws
	cmd.Env = append(append([]string{}, e.vars...), escapeProbeEnv+"="+string(b))
	e.credential(cmd)
	e.chownTree()
	if e.wrap != nil {
		e.wrap(cmd)
	}
	if o, err := cmd.CombinedOutput(); err != nil {
		e.t.Fatalf("the bare probe: %v\n%s", err, o)
	}
	return readFindings(e.t, out)
}

// serveBanner greets every connection with the banner the net probe
// (and its CONNECT through the proxy) takes as a test server's.
func serveBanner(l net.Listener, label string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		fmt.Fprintf(c, "HOST-SERVER-%s\n", label)
		c.Close()
	}
}

// echoIn serves a UDP echo (a DNS server's shape: one datagram in, one
// out) on addr in the network namespace of pid.
func echoIn(t *testing.T, pid int, addr string) {
	t.Helper()
	var pc net.PacketConn
	err := inNetNS(pid, func() (err error) {
		pc, err = net.ListenPacket("udp", addr)
		return err
	})
	if err != nil {
		t.Fatalf("udp %s in the namespace of %d: %v", addr, pid, err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		b := make([]byte, 512)
		for {
			n, from, err := pc.ReadFrom(b)
			if err != nil {
				return
			}
			pc.WriteTo(b[:n], from)
		}
	}()
}

// inNetNS runs fn on a thread that has joined the network namespace of
// pid and comes back after (a socket made there stays there).
func inNetNS(pid int, fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		self, err := os.Open("/proc/self/task/" + strconv.Itoa(unix.Gettid()) + "/ns/net")
		if err != nil {
			errc <- err
			return
		}
		defer self.Close()
		target, err := os.Open(fmt.Sprintf("/proc/%d/ns/net", pid))
		if err != nil {
			errc <- err
			return
		}
		defer target.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- err
			return
		}
		err = fn()
		if unix.Setns(int(self.Fd()), unix.CLONE_NEWNET) == nil {
			runtime.UnlockOSThread() // else the thread ends with the goroutine
		}
		errc <- err
	}()
	return <-errc
}

// readFindings reads a probe's findings file.
func readFindings(t *testing.T, out string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the probe wrote no findings: %v", err)
	}
	f := map[string]string{}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}
