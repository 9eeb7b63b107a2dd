// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// The agent ring's proxy socket and its log, in the session directory
// (read-only in the ring: the socket still connects). The socket's name
// is no longer than the worker's, so that it fits in sun_path wherever
// the session does.
const (
	AgentSocketName = "ring.sock"
	AgentLogName    = "ring-egress.jsonl"
)

// Net is the agent ring's network (#27): a namespace with loopback only
// whose one way out is the agent's own proxy, with rules of its own
// (never the commands' sandbox.allow_domains, which it never widens):
// the adapter's provider hosts, agent.allow_domains, and the granted
// host ports (docs/ring.md "The network").
type Net struct {
	Rules egress.Config
	// Ports are agent.host_ports: 127.0.0.1:PORT inside is the host's.
	Ports []int
	// Hosts are the provider hosts and agent.allow_domains, for the
	// dry run.
	Hosts []string
}

// resolveWait bounds the look-ups of configured provider names.
const resolveWait = 3 * time.Second

// AgentNet builds the ring's network from the adapter's providers and
// the user's agent.allow_domains and agent.host_ports. A provider named
// by a URL the user configured (ANTHROPIC_BASE_URL, a base_url) is
// granted on its port, and at the addresses its name has on this host
// even when they are special (a model server on this host or the LAN
// is the user's choice): that address and port, no other. A dry run
// looks nothing up.
func AgentNet(in Input) Net {
	var n Net
	var provs []string
	if in.State != nil {
		provs = in.State.Providers
	}
	for _, p := range provs {
		host, port, explicit := providerTarget(p)
		if host == "" {
			continue
		}
		n.Rules.AllowDomains = appendNew(n.Rules.AllowDomains, host)
		n.Hosts = appendNew(n.Hosts, egress.HostPort(host, uint16(port)))
		if port != 80 && port != 443 && !slices.Contains(n.Rules.AllowPorts, port) {
			n.Rules.AllowPorts = append(n.Rules.AllowPorts, port)
		}
		if explicit {
			for _, a := range providerAddrs(host, in.DryRun) {
				n.addAddr(netip.AddrPortFrom(a, uint16(port)).String())
			}
		}
	}
	for _, d := range in.Policy.Agent.AllowDomains {
		n.addHost(d)
	}
	n.Ports = append(n.Ports, in.Policy.Agent.HostPorts...)
	// The proxy's own way to a granted port, for a client that ignores
	// the port in NO_PROXY (egress.AgentEnv).
	hp := egress.HostPortsConfig(n.Ports)
	n.Rules.AllowDomains = appendNew(n.Rules.AllowDomains, hp.AllowDomains...)
	n.addAddr(hp.AllowAddresses...)
	return n
}

func (n *Net) addHost(h string) {
	n.Rules.AllowDomains = appendNew(n.Rules.AllowDomains, h)
	n.Hosts = appendNew(n.Hosts, h)
}

func (n *Net) addAddr(as ...string) {
	n.Rules.AllowAddresses = appendNew(n.Rules.AllowAddresses, as...)
}

func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// providerTarget reads one provider entry: a URL (explicit) or a bare
// host name (https). A malformed entry gives "".
func providerTarget(p string) (host string, port int, explicit bool) {
	if !strings.Contains(p, "://") {
		if _, err := egress.CheckPattern(p); err != nil {
			return "", 0, false
		}
		return p, 443, false
	}
	u, err := url.Parse(p)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return "", 0, false
	}
	host = strings.ToLower(u.Hostname())
	if _, err := egress.CheckPattern(host); err != nil {
		return "", 0, false
	}
	port = 443
	if u.Scheme == "http" {
		port = 80
	}
	if ps := u.Port(); ps != "" {
		if port, err = strconv.Atoi(ps); err != nil || egress.CheckPort(port) != nil {
			return "", 0, false
		}
	}
	return host, port, true
}

// providerAddrs are host's addresses on this host (an IP literal is its
// own).
func providerAddrs(host string, dry bool) []netip.Addr {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a.Unmap()}
	}
	if dry {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), resolveWait)
	defer cancel()
	found, _ := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	for i, a := range found {
		found[i] = a.Unmap()
	}
	return found
}

// Serve starts the agent's proxy on the session's agent socket: the
// rules of n, the session's upstream proxy (the user's own HTTPS_PROXY
// or sandbox.upstream_proxy, held here on the host side only: the ring
// sees only its bridge's address), each connection recorded in the
// session's ring-egress.jsonl. It returns the socket and a stop
// function.
func (n Net) Serve(dir string, upstream *egress.Upstream, warn func(error)) (string, func(), error) {
	sock := filepath.Join(dir, AgentSocketName)
	l, err := egress.Listen(sock)
	if err != nil {
		return "", nil, fmt.Errorf("launch: ring network: %w", err)
	}
	if err := n.serveOn(l, dir, upstream, warn); err != nil {
		l.Close()
		return "", nil, err
	}
	return sock, func() { l.Close(); os.Remove(sock) }, nil
}

// serveOn serves the agent's proxy on l (see [Net.Serve]).
func (n Net) serveOn(l net.Listener, dir string, upstream *egress.Upstream, warn func(error)) error {
	rules, err := egress.Compile(n.Rules)
	if err != nil {
		return fmt.Errorf("launch: ring network: %w", err)
	}
	px := egress.New(rules)
	px.Upstream = upstream
	px.LocalDirect = true
	logPath := filepath.Join(dir, AgentLogName)
	var once sync.Once
	px.Record = func(d egress.Decision) {
		if line, err := egress.Marshal(d); err == nil {
			if err := audit.AppendRotated(logPath, line, egress.LogMaxBytes, egress.LogKeep); err != nil && warn != nil {
				once.Do(func() { warn(err) })
			}
		}
	}
	go px.Serve(l)
	return nil
}

// Env is what the agent's environment becomes on n: the proxy
// variables of the ring's bridge (egress.AgentEnv) and, for the confine
// step, the proxy socket and the ports to forward (removed before the
// agent starts).
func (n Net) Env(env []string, sock string) []string {
	out := egress.AgentEnv(env, n.Ports)
	out = append(out, egress.EnvSocket+"="+sock)
	if len(n.Ports) > 0 {
		out = append(out, egress.EnvForward+"="+egress.ForwardValue(n.Ports))
	}
	return out
}

// Line is the dry run's line on the ring's network.
func (n Net) Line() string {
	hosts := "none"
	if len(n.Hosts) > 0 {
		hosts = strings.Join(n.Hosts, ", ")
	}
	ports := "none"
	if len(n.Ports) > 0 {
		ports = egress.ForwardValue(n.Ports)
	}
	return fmt.Sprintf("network: own namespace, loopback only; out only through the agent's proxy (127.0.0.1:%d, socks5 :%d) to: %s; host loopback ports forwarded (agent.host_ports): %s",
		egress.HTTPPort, egress.SOCKSPort, hosts, ports)
}

// closingMax bounds the destinations the closing line names.
const closingMax = 8

// ClosingLine is said when the session ends (never into the agent's
// screen while it runs): the destinations the agent's proxy refused
// since since, from the session's ring-egress.jsonl in dir, and the key
// that opens one; "" when it refused none (docs/ring.md "The network").
func ClosingLine(dir string, since time.Time) string {
	list, more := egress.Refusals(filepath.Join(dir, AgentLogName), since, closingMax)
	if len(list) == 0 {
		return ""
	}
	s := strings.Join(list, ", ")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("the agent's proxy refused %s this session (the agent ring reaches only its provider hosts, agent.allow_domains and agent.host_ports; to allow a name: agent.allow_domains, a port of this host: agent.host_ports, in your own config; every connection is in %s)",
		s, filepath.Join(dir, AgentLogName))
}
