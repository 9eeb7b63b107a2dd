// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRingNetNeighbours (#27): a LAN host, the cloud metadata address
// and a DNS server, each a server of this test in a network namespace
// of its own standing ("lan"), joined by a veth pair to a second one
// ("host") where lite-sandbox runs: the probe in "host" reaches all
// three (the control), the probe in the ring none, directly or through
// the agent's proxy. Setting up namespaces needs root: the launcher then
// runs in "host" as root, and as nobody (setpriv); the host's own
// network is never touched.

// neighbourEnv makes the test binary the neighbours' servers; its value
// is the file it writes once they listen.
const neighbourEnv = "LITE_SANDBOX_NEIGHBOUR_SERVER"

// The neighbourhood's addresses.
const (
	lanHost  = "10.77.0.2"
	hostSide = "10.77.0.1"
	metadata = "169.254.169.254"
)

// neighbourServer serves HTTP-ish banners on the LAN host and the
// metadata address, and a UDP echo (a DNS server's shape) on port 53.
func neighbourServer(ready string) int {
	for _, a := range []string{lanHost + ":80", metadata + ":80"} {
		l, err := net.Listen("tcp", a)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				fmt.Fprintf(c, "HOST-SERVER-%s\n", a)
				c.Close()
			}
		}()
	}
	pc, err := net.ListenPacket("udp", lanHost+":53")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
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
	os.WriteFile(ready, []byte("up"), 0o644)
	time.Sleep(10 * time.Minute)
	return 0
}

// netnsAdd lets one neighbourhood of this test binary exist at a time.
var netnsAdd sync.Mutex

// ipRun runs ip with args, failing the test on an error.
func ipRun(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// neighbourhood makes the two namespaces and the servers; it returns
// the "host" namespace's name.
func neighbourhood(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip command: the neighbourhood cannot be built")
	}
	id := strconv.Itoa(os.Getpid()) + strconv.FormatInt(time.Now().UnixNano()%100000, 10)
	host, lan := "lsh"+id, "lsl"+id
	// One neighbourhood at a time: under load, one subtest's named
	// namespace was unusable (setns: "Invalid argument") while the
	// other's were made or removed; the lock is released after the
	// namespaces are deleted (cleanups run last-in first-out).
	netnsAdd.Lock()
	t.Cleanup(netnsAdd.Unlock)
	ipRun(t, "netns", "add", host)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", host).Run() })
	ipRun(t, "netns", "add", lan)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", lan).Run() })
	ipRun(t, "link", "add", "va", "netns", host, "type", "veth", "peer", "name", "vb", "netns", lan)
	ipRun(t, "-n", host, "addr", "add", hostSide+"/24", "dev", "va")
	ipRun(t, "-n", lan, "addr", "add", lanHost+"/24", "dev", "vb")
	ipRun(t, "-n", lan, "addr", "add", metadata+"/32", "dev", "vb")
	for _, l := range [][2]string{{host, "va"}, {lan, "vb"}, {host, "lo"}, {lan, "lo"}} {
		ipRun(t, "-n", l[0], "link", "set", l[1], "up")
	}
	ipRun(t, "-n", host, "route", "add", metadata+"/32", "dev", "va")
	ready := t.TempDir() + "/ready"
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, "ip", "netns", "exec", lan, probeBinary)
	srv.Env = []string{neighbourEnv + "=" + ready}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the neighbours' servers did not start")
		}
	}
	return host
}

// inNetns runs argv in the namespace ns as e's user (setpriv drops root
// after ip has entered the namespace), in e's workspace and environment.
func (e *env) inNetns(ns string, extra []string, argv ...string) (string, error) {
	e.t.Helper()
	full := []string{"netns", "exec", ns}
	if e.cred != nil {
		full = append(full, "setpriv", "--reuid", strconv.Itoa(int(e.cred.Uid)), "--regid", strconv.Itoa(int(e.cred.Gid)), "--clear-groups", "--")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "ip", append(full, argv...)...)
	cmd.Dir = e.ws
	cmd.Env = append(append([]string{}, e.vars...), extra...)
	e.chownTree()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestRingNetNeighbours(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("network namespaces of the test's own need root")
	}
	if os.Getenv("LITE_SANDBOX_TEST_NEIGHBOURS") == "" {
		// Known defect (#27, open): on the CI machine a namespace just made
		// by `ip netns add` is intermittently unusable ("RTNETLINK answers:
		// Invalid argument", setns EINVAL), even one at a time and idle;
		// the cause is not found. TestRingNetwork holds the ring's
		// refusals of host loopback, the host's address and metadata.
		t.Skip("set LITE_SANDBOX_TEST_NEIGHBOURS=1: named namespaces are intermittently unusable on this machine (#27)")
	}
	users(t, func(t *testing.T, e *env) {
		ns := neighbourhood(t)
		tcp := lanHost + ":80 " + metadata + ":80"
		args := map[string]string{"tcp": tcp, "udp": lanHost + ":53"}
		run := func(ring bool) map[string]string {
			out := e.ws + "/.probe-neighbours-" + strconv.FormatBool(ring) + ".json"
			os.Remove(out)
			b, _ := json.Marshal(probeSpec{Mode: "net", Out: out, Args: args})
			spec := string(b)
			argv := []string{probeBinary}
			if ring {
				argv = []string{binary, "launch", "--sandbox", "on", "exec", "--", probeBinary}
			}
			if o, err := e.inNetns(ns, []string{escapeProbeEnv + "=" + spec}, argv...); err != nil {
				t.Fatalf("probe (ring %v): %v\n%s", ring, err, o)
			}
			return readFindings(t, out)
		}
		host := run(false)
		expect(t, "the host's namespace", host, map[string]string{
			"tcp:" + lanHost + ":80": "yes", "tcp:" + metadata + ":80": "yes", "udp:" + lanHost + ":53": "yes"})
		args["proxy"] = "127.0.0.1:3128"
		args["connect"] = tcp
		ring := run(true)
		expect(t, "the ring", ring, map[string]string{
			"tcp:" + lanHost + ":80": "no", "tcp:" + metadata + ":80": "no", "udp:" + lanHost + ":53": "no",
			"connect:" + lanHost + ":80": "no: 403", "connect:" + metadata + ":80": "no: 403"})
	})
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
