// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package config

import (
	"fmt"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// networkOptions applies --network and --allow-domain to the loaded
// policy. Both are the user's own choice, like their config file.
func networkOptions(p *policy.Policy, o Options) error {
	switch o.Network {
	case "":
		if len(o.Domains) > 0 {
			p.Sandbox.Network = policy.NetworkAllow
		}
	case policy.NetworkOpen, policy.NetworkOff, policy.NetworkAllow, policy.NetworkHost:
		p.Sandbox.Network = o.Network
	default:
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("unknown network mode %q (want open, allow, off or host)", o.Network)}
	}
	if len(o.Domains) > 0 && p.Sandbox.Network != policy.NetworkAllow {
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("--allow-domain needs --network allow (the network is %q)", p.Sandbox.Network)}
	}
	if err := p.AllowDomainsFlag(o.Domains); err != nil {
		return &exit.Error{Code: exit.Usage, Err: err}
	}
	return nil
}
