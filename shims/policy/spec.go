// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"errors"

	"github.com/lite-sandbox/lite-sandbox/sandbox"
)

// SandboxSpec builds the sandbox of one command (or session) from the
// policy; see [sandbox.NewSpec] for how paths are expanded and checked.
func (p *Policy) SandboxSpec(workspace, home, cwd string) (sandbox.Spec, error) {
	if p == nil {
		return sandbox.Spec{}, errors.New("sandbox spec: nil policy")
	}
	return sandbox.NewSpec(p.Sandbox.Grants(), workspace, home, cwd)
}

// Grants are the lists of the policy's [sandbox] table the OS sandbox
// enforces.
func (s Sandbox) Grants() sandbox.Grants {
	return sandbox.Grants{Network: s.Network, Lists: s.Lists, Unprotect: s.Unprotect, AllowAddresses: s.AllowAddresses}
}
