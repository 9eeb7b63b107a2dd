// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The agent ring's network (#27, docs/ring.md "The network"): a program
// in the ring that is not a shell (this test binary as the probe)
// reaches none of the host's services, neither on its loopback nor on
// its other addresses, over TCP or UDP; the ring's one way out is the
// agent's proxy, which refuses the host's loopback too; a port granted
// with agent.host_ports is reached, and only that one. The positive
// control is the same probe on the host, which reaches every server.

// netServer is a TCP server of the test that greets each connection
// with its banner, so that the probe tells the host's server from
// anything else listening.
type netServer struct {
	addr   string
	banner string
}

func startTCP(t *testing.T, addr string) netServer {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	s := netServer{addr: l.Addr().String()}
	s.banner = "HOST-SERVER-" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			fmt.Fprintf(c, "%s\n", s.banner)
			c.Close()
		}
	}()
	return s
}

// startUDP is a UDP echo server (the shape of a DNS server: one
// datagram in, one out).
func startUDP(t *testing.T, addr string) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		t.Fatal(err)
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
	return pc.LocalAddr().String()
}

// probeNet dials every "tcp" target (reading the server's banner), sends
// a datagram to every "udp" target and waits for its echo, and, with
// "proxy", asks the ring's proxy for a CONNECT to every "connect"
// target.
func probeNet(s probeSpec, f map[string]string) {
	for _, t := range fields(s.Args["tcp"]) {
		c, err := net.DialTimeout("tcp", t, 3*time.Second)
		if err == nil {
			c.SetDeadline(time.Now().Add(5 * time.Second))
			line, rerr := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if rerr != nil {
				err = fmt.Errorf("connected, but no banner: %w", rerr)
			} else {
				f["banner:"+t] = strings.TrimSpace(line)
			}
		}
		f["tcp:"+t] = did(err)
	}
	for _, t := range fields(s.Args["udp"]) {
		f["udp:"+t] = did(udpEcho(t))
	}
	for _, t := range fields(s.Args["connect"]) {
		f["connect:"+t] = did(proxyConnect(s.Args["proxy"], t))
	}
	// Hex in the probe's own spec (its environment), which must not
	// count as the secret seen.
	if sec, _ := hex.DecodeString(s.Args["secret"]); len(sec) > 0 {
		f["secret_seen"] = seenSecret(string(sec))
	}
}

// seenSecret says where in the ring's reach sec appears: the probe's
// environment or a file of the session directory (the frozen policy),
// or "no".
func seenSecret(sec string) string {
	if b, _ := os.ReadFile("/proc/self/environ"); strings.Contains(string(b), sec) {
		return "environ"
	}
	seen := "no"
	filepath.WalkDir(os.Getenv("LITE_SANDBOX_SESSION"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), sec) {
				seen = p
			}
		}
		return nil
	})
	return seen
}

func fields(v string) []string { return strings.Fields(v) }

func udpEcho(t string) error {
	c, err := net.Dial("udp", t)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("ping")); err != nil {
		return err
	}
	b := make([]byte, 16)
	n, err := c.Read(b)
	if err == nil && string(b[:n]) != "ping" {
		err = fmt.Errorf("echo %q", b[:n])
	}
	return err
}

// proxyConnect asks the HTTP proxy at proxy for a tunnel to target.
func proxyConnect(proxy, target string) error {
	c, err := net.DialTimeout("tcp", proxy, 3*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s", resp.Status)
	}
	line, err := br.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HOST-SERVER-") {
		return fmt.Errorf("tunnel open, but no banner: %q %v", line, err)
	}
	return nil
}

// hostAddr is a non-loopback IPv4 address of this host, or "".
func hostAddr() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

func TestRingNetwork(t *testing.T) {
	t.Parallel()
	users(t, func(t *testing.T, e *env) {
		granted := startTCP(t, "127.0.0.1:0")
		other := startTCP(t, "127.0.0.1:0")
		wide := startTCP(t, "0.0.0.0:0") // every address of the host
		_, widePort, _ := net.SplitHostPort(wide.addr)
		udpLo := startUDP(t, "127.0.0.1:0")
		tcp := []string{granted.addr, other.addr, "127.0.0.1:" + widePort}
		udp := []string{udpLo}
		if a := hostAddr(); a != "" {
			tcp = append(tcp, net.JoinHostPort(a, widePort))
			_, up, _ := net.SplitHostPort(startUDP(t, "0.0.0.0:0"))
			udp = append(udp, net.JoinHostPort(a, up))
		} else {
			t.Log("this host has no address but loopback: its other addresses are not tried")
		}
		args := map[string]string{"tcp": strings.Join(tcp, " "), "udp": strings.Join(udp, " ")}

		// The control: on the host, the probe reaches every server.
		host := e.runProbe("net", false, args)
		for _, a := range tcp {
			expect(t, "host", host, map[string]string{"tcp:" + a: "yes"})
		}
		for _, a := range udp {
			expect(t, "host", host, map[string]string{"udp:" + a: "yes"})
		}

		// In the ring, without a grant: none of them, directly or
		// through the ring's proxy; the proxy itself answers (the
		// control of the CONNECT refusals).
		args["proxy"] = "127.0.0.1:3128"
		args["connect"] = granted.addr + " " + other.addr
		args["tcp"] += " 127.0.0.1:3128 169.254.169.254:80"
		ring := e.runProbe("net", true, args)
		want := map[string]string{"tcp:127.0.0.1:3128": "connected, but no banner", "tcp:169.254.169.254:80": "no: dial tcp 169.254.169.254:80: connect: network is unreachable"}
		for _, a := range tcp {
			want["tcp:"+a] = "no"
		}
		for _, a := range udp {
			want["udp:"+a] = "no"
		}
		want["connect:"+granted.addr] = "no: 403"
		want["connect:"+other.addr] = "no: 403"
		expectRing(t, "ring", ring, want)

		// agent.host_ports grants one port: reached (its banner, the
		// host's server), directly and through the proxy; the other
		// port still not.
		_, gp, _ := net.SplitHostPort(granted.addr)
		e.write("~/.config/lite-sandbox/config.toml", "[agent]\nhost_ports = ["+gp+"]\n")
		ring = e.runProbe("net", true, args, "LITE_SANDBOX_CONFIG="+e.abs("~/.config/lite-sandbox/config.toml"))
		expectRing(t, "ring with a granted port", ring, map[string]string{
			"tcp:" + granted.addr: "yes", "banner:" + granted.addr: granted.banner,
			"connect:" + granted.addr: "yes",
			"tcp:" + other.addr:       "no", "connect:" + other.addr: "no: 403",
			"tcp:127.0.0.1:" + widePort: "no",
		})
	})
}

// expectRing is expect, with "connected, but no banner" for the proxy
// port (it answers, but is no server of the test).
func expectRing(t *testing.T, what string, f, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if !strings.HasPrefix(f[k], w) && !(w == "connected, but no banner" && strings.Contains(f[k], w)) {
			t.Errorf("%s: %s = %q, want %s… (all: %v)", what, k, f[k], w, f)
		}
	}
}

// TestRingNetAgents: the real Claude Code and Codex CLIs complete a
// turn from inside the ring, whose namespace has no route to the mock
// model on the host's loopback (TestRingNetwork): they reach it through
// the agent's proxy, as the provider their configuration names
// (ANTHROPIC_BASE_URL, Codex's base_url), as root and as nobody.
func TestRingNetAgents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cli, install, key string
		run               func(e *env) (string, string, int)
	}{
		{"claude", "npm install -g @anthropic-ai/claude-code@2.1.197", "ANTHROPIC_API_KEY", runClaude},
		{"codex", "npm install -g @openai/codex@0.171.0", "MOCK_API_KEY", runCodex},
	} {
		t.Run(tc.cli, func(t *testing.T) {
			t.Parallel()
			bin := agentBin(t, tc.cli, tc.install)
			asUsers(t, func(t *testing.T) *env { return newEnv(t, bin, "") }, tc.cli, func(t *testing.T, e *env) {
				e.setCommand(allowedCommand(e, tc.key))
				out, errs, code := tc.run(e)
				if code != 0 {
					t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
				}
				e.checkAllowed(e.result(out, errs), out, errs)
			})
		})
	}
}

// startUpstream is the user's own proxy: it records the credentials of
// each CONNECT and opens a tunnel to nowhere that greets with a banner.
func startUpstream(t *testing.T) (addr string, auth chan string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	auth = make(chan string, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				auth <- req.Method + " " + req.Host + " " + req.Header.Get("Proxy-Authorization")
				fmt.Fprintf(c, "HTTP/1.1 200 Connection established\r\n\r\nHOST-SERVER-upstream\n")
			}()
		}
	}()
	return l.Addr().String(), auth
}

// TestRingNetUpstream: the user's own proxy (the launcher's HTTPS_PROXY,
// or sandbox.upstream_proxy) is the upstream of the agent's proxy, with
// its credentials, which nothing in the ring can read: not the
// environment, not the session's frozen policy (#27). The control: the
// upstream does get them, for a host of agent.allow_domains.
func TestRingNetUpstream(t *testing.T) {
	t.Parallel()
	const secret = "pw-7c1e0b"
	target := "93.184.215.14:443" // a public address: dialled through the upstream
	users(t, func(t *testing.T, e *env) {
		up, auth := startUpstream(t)
		cfg := e.abs("~/.config/lite-sandbox/config.toml")
		for _, how := range []string{"env", "config"} {
			conf := "[agent]\nallow_domains = [\"93.184.215.14\"]\n"
			extra := []string{"LITE_SANDBOX_CONFIG=" + cfg}
			if how == "env" {
				extra = append(extra, "HTTPS_PROXY=http://u:"+secret+"@"+up)
			} else {
				conf = "[sandbox]\nupstream_proxy = \"http://u:" + secret + "@" + up + "\"\n" + conf
			}
			e.write("~/.config/lite-sandbox/config.toml", conf)
			f := e.runProbe("net", true, map[string]string{"proxy": "127.0.0.1:3128", "connect": target, "secret": hex.EncodeToString([]byte(secret))}, extra...)
			expect(t, how, f, map[string]string{"connect:" + target: "yes", "secret_seen": "no"})
			want := "CONNECT " + target + " Basic " + base64.StdEncoding.EncodeToString([]byte("u:"+secret))
			select {
			case got := <-auth:
				if got != want {
					t.Errorf("%s: the upstream got %q, want %q", how, got, want)
				}
			default:
				t.Errorf("%s: the upstream heard nothing (findings %v)", how, f)
			}
		}
	})
}
