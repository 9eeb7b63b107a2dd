// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

// applyAgent merges the [agent] table. agent.write widens what the agent
// process itself may change on the host, so only the user's file may set
// it: a repository must not make ~/.bashrc writable for the agent.
func (p *Policy) applyAgent(l *layer, project bool) error {
	if len(l.Agent.Write) == 0 {
		return nil
	}
	if project {
		return l.errAt("agent.write: a project file may only tighten the policy (it would let the agent write more of the host)", "write")
	}
	for i, v := range l.Agent.Write {
		if err := checkPath("agent.write", v); err != nil {
			return l.errAt(err.Error(), "write", i)
		}
	}
	p.Agent.Write = appendNew(p.Agent.Write, l.Agent.Write...)
	return nil
}
