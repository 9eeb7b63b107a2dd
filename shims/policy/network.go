// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// networkStrictness orders the network modes: host < open < allow <
// off. A project file cannot choose host (it is more open than open).
func networkStrictness(n string) int {
	switch n {
	case NetworkHost:
		return 0
	case NetworkOpen, "":
		return 1
	case NetworkAllow:
		return 2
	case NetworkOff:
		return 3
	}
	return -1
}

// applyNetwork merges the network keys of one layer. A project file may
// make the network stricter (open to allow or off, allow to off) and
// remove names (deny_domains), never add names or addresses: a hostile
// repository must not open a way out (escape classes 19, 20 and 28).
func (p *Policy) applyNetwork(l *layer, project bool, loosen func(key, why string) error) error {
	if n := l.Sandbox.Network; n != nil {
		if networkStrictness(*n) < 0 || *n == "" {
			return l.errAt(fmt.Sprintf("unknown network mode %q (want open, allow, off or host)", *n), "network")
		}
		if project && networkStrictness(*n) < networkStrictness(p.Sandbox.Network) {
			return loosen("sandbox.network", fmt.Sprintf("%q is more open than %q", *n, p.Sandbox.Network))
		}
		p.Sandbox.Network = *n
	}
	if project && len(l.Sandbox.AllowDomains) > 0 {
		return loosen("sandbox.allow_domains", "a project file may only remove names, with sandbox.deny_domains")
	}
	if project && len(l.Sandbox.AllowAddresses) > 0 {
		return loosen("sandbox.allow_addresses", "only your own file may let the sandbox reach local or private addresses")
	}
	if project && len(l.Sandbox.AllowPorts) > 0 {
		return loosen("sandbox.allow_ports", "only your own file may open more ports")
	}
	if project && len(l.Sandbox.HostPorts) > 0 {
		return loosen("sandbox.host_ports", "only your own file may let commands reach services of this host")
	}
	if project && l.Sandbox.UpstreamProxy != nil {
		// A repository must not route the sandbox's traffic through a
		// proxy of its choosing (which would see every name it reaches).
		return loosen("sandbox.upstream_proxy", "only your own file may name an upstream proxy")
	}
	for i, v := range l.Sandbox.AllowPorts {
		if err := egress.CheckPort(v); err != nil {
			return l.errAt(fmt.Sprintf("sandbox.allow_ports: %v", err), "allow_ports", i)
		}
		if !slices.Contains(p.Sandbox.AllowPorts, v) {
			p.Sandbox.AllowPorts = append(p.Sandbox.AllowPorts, v)
		}
	}
	for i, v := range l.Sandbox.HostPorts {
		if err := egress.CheckPort(v); err != nil {
			return l.errAt(fmt.Sprintf("sandbox.host_ports: %v", err), "host_ports", i)
		}
		if v == egress.HTTPPort || v == egress.SOCKSPort {
			return l.errAt(fmt.Sprintf("sandbox.host_ports: %d is the sandbox's own proxy port; it cannot be forwarded", v), "host_ports", i)
		}
		if !slices.Contains(p.Sandbox.HostPorts, v) {
			p.Sandbox.HostPorts = append(p.Sandbox.HostPorts, v)
		}
	}
	if u := l.Sandbox.UpstreamProxy; u != nil {
		if *u != UpstreamNone && *u != "" {
			if _, err := egress.ParseUpstream(*u); err != nil {
				return l.errAt(err.Error(), "upstream_proxy")
			}
		}
		p.Sandbox.UpstreamProxy = *u
	}
	for _, f := range []struct {
		key string
		src []string
		dst *[]string
	}{
		{"sandbox.allow_domains", l.Sandbox.AllowDomains, &p.Sandbox.AllowDomains},
		{"sandbox.deny_domains", l.Sandbox.DenyDomains, &p.Sandbox.DenyDomains},
	} {
		for i, v := range f.src {
			n, err := egress.CheckPattern(v)
			if err != nil {
				return l.errAt(fmt.Sprintf("%s: %v", f.key, err), lastKey(f.key), i)
			}
			*f.dst = appendNew(*f.dst, n)
		}
	}
	for i, v := range l.Sandbox.AllowAddresses {
		if err := egress.CheckAddress(v); err != nil {
			return l.errAt(fmt.Sprintf("sandbox.allow_addresses: %v", err), "allow_addresses", i)
		}
	}
	p.Sandbox.AllowAddresses = appendNew(p.Sandbox.AllowAddresses, l.Sandbox.AllowAddresses...)
	return nil
}

// UpstreamNone as sandbox.upstream_proxy chains to no proxy, whatever
// the host's HTTPS_PROXY says.
const UpstreamNone = "none"

// EgressProxy returns the network = "allow" proxy of the policy: its
// rules, and the upstream proxy (sandbox.upstream_proxy, or the host's
// own HTTPS_PROXY read through getenv: honoured on the host side only,
// never inside the sandbox). The per-command proxy (shims) and the
// session's (launch) are both built here.
func (p *Policy) EgressProxy(getenv func(string) string) (*egress.Proxy, error) {
	sb := p.Sandbox
	rules, err := egress.Compile(egress.Config{AllowDomains: sb.AllowDomains, DenyDomains: sb.DenyDomains,
		AllowAddresses: sb.AllowAddresses, AllowPorts: sb.AllowPorts})
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	px := egress.New(rules)
	if px.Upstream, err = p.Upstream(getenv); err != nil {
		return nil, err
	}
	return px, nil
}

// Upstream is the proxy every allowed connection of the session's
// proxies (the commands' and the agent ring's) chains to: the policy's
// sandbox.upstream_proxy, else the launcher's own HTTPS_PROXY (getenv
// reads the host side's environment, never a sandbox's); nil for none.
func (p *Policy) Upstream(getenv func(string) string) (*egress.Upstream, error) {
	var u *egress.Upstream
	var err error
	switch p.Sandbox.UpstreamProxy {
	case UpstreamNone:
	case "":
		u, err = egress.UpstreamFromEnv(getenv)
	default:
		u, err = egress.ParseUpstream(p.Sandbox.UpstreamProxy)
	}
	if err != nil {
		return nil, fmt.Errorf("policy: sandbox.upstream_proxy: %w", err)
	}
	return u, nil
}

// AllowDomainsFlag adds names given on the command line (--allow-domain),
// which count as the user's own.
func (p *Policy) AllowDomainsFlag(names []string) error {
	for _, v := range names {
		n, err := egress.CheckPattern(v)
		if err != nil {
			return fmt.Errorf("--allow-domain: %w", err)
		}
		if !slices.Contains(p.Sandbox.AllowDomains, n) {
			p.Sandbox.AllowDomains = append(p.Sandbox.AllowDomains, n)
		}
	}
	return nil
}
