// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"path"
	"slices"

	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// applyAgent merges the [agent] table. Each key widens what the agent
// process itself may reach on the host (agent.write: change,
// agent.read: see, agent.env: keep in its environment), so only the
// user's file may set them: a repository must not make ~/.bashrc
// writable, ~/.aws readable or a token visible to the agent.
func (p *Policy) applyAgent(l *layer, project bool) error {
	for _, k := range []struct {
		key  string
		vals []string
		what string
	}{
		{"write", l.Agent.Write, "write more of the host"},
		{"read", l.Agent.Read, "read more of the host"},
		{"env", l.Agent.Env, "keep more of your environment"},
		{"allow_domains", l.Agent.AllowDomains, "reach more of the network"},
	} {
		if len(k.vals) > 0 && project {
			return l.errAt(fmt.Sprintf("agent.%s: a project file may only tighten the policy (it would let the agent %s)", k.key, k.what), k.key)
		}
	}
	for _, k := range []struct {
		key  string
		vals []string
	}{{"write", l.Agent.Write}, {"read", l.Agent.Read}} {
		for i, v := range k.vals {
			if err := checkPath("agent."+k.key, v); err != nil {
				return l.errAt(err.Error(), k.key, i)
			}
		}
	}
	for i, v := range l.Agent.Env {
		if _, err := path.Match(v, ""); err != nil || v == "" {
			return l.errAt(fmt.Sprintf("agent.env: %q is not a name or glob", v), "env", i)
		}
	}
	if err := p.applyAgentNet(l, project); err != nil {
		return err
	}
	p.Agent.Write = appendNew(p.Agent.Write, l.Agent.Write...)
	p.Agent.Read = appendNew(p.Agent.Read, l.Agent.Read...)
	p.Agent.Env = appendNew(p.Agent.Env, l.Agent.Env...)
	return nil
}

// applyAgentNet merges agent.allow_domains and agent.host_ports: what
// the agent ring reaches besides its provider hosts (docs/ring.md "The
// network"). Only the user's file may set them: a repository must not
// open the host's database port or a host of its choosing to the agent.
func (p *Policy) applyAgentNet(l *layer, project bool) error {
	if len(l.Agent.HostPorts) > 0 && project {
		return l.errAt("agent.host_ports: a project file may only tighten the policy (it would let the agent reach services of this host)", "host_ports")
	}
	for i, v := range l.Agent.AllowDomains {
		n, err := egress.CheckPattern(v)
		if err != nil {
			return l.errAt("agent.allow_domains: "+err.Error(), "allow_domains", i)
		}
		p.Agent.AllowDomains = appendNew(p.Agent.AllowDomains, n)
	}
	for i, v := range l.Agent.HostPorts {
		if err := egress.CheckPort(v); err != nil {
			return l.errAt("agent.host_ports: "+err.Error(), "host_ports", i)
		}
		if v == egress.HTTPPort || v == egress.SOCKSPort {
			return l.errAt(fmt.Sprintf("agent.host_ports: %d is the ring's own proxy port; it cannot be forwarded", v), "host_ports", i)
		}
		if !slices.Contains(p.Agent.HostPorts, v) {
			p.Agent.HostPorts = append(p.Agent.HostPorts, v)
		}
	}
	return nil
}
