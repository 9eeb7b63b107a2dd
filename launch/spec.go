// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/launch/ring"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/shims"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// launchSpec is the launch's one sandbox spec (#29): built from the
// policy and completed from the host ([sandbox.DetectHost]: the
// workspace's git state, read with one git call) once, when the launch
// starts. The adapter's file rules, the session's worker and the agent
// ring each get a clone of it, so the three agree on what is protected
// and the host is not read three times.
type launchSpec struct {
	spec sandbox.Spec
	// err is the policy's paths that the sandbox rejects: reported by
	// whatever needs the spec (a launch without a sandbox does not).
	err error
	// view is what the agent ring shows, set once the ring is
	// prepared (ring.Input.View), for the path judge of the agents'
	// file hooks in the session's judge.
	view *shims.RingView
}

// newLaunchSpec builds the launch's spec for workspace and home.
func newLaunchSpec(p *policy.Policy, workspace, home string) launchSpec {
	spec, err := p.SandboxSpec(workspace, home, "")
	if err != nil {
		return launchSpec{err: fmt.Errorf("launch: %w", err)}
	}
	sandbox.DetectHost(&spec)
	return launchSpec{spec: spec, view: new(shims.RingView)}
}

// get is a clone of the spec, or the error that prevented it.
func (l launchSpec) get() (sandbox.Spec, error) {
	if l.err != nil {
		return sandbox.Spec{}, l.err
	}
	return l.spec.Clone(), nil
}

// shareGitHome makes the spec's users bind the session's copy of the
// user's git configuration (made when s opened), so that git's global
// configuration is read once per launch.
func (l *launchSpec) shareGitHome(s *Session) {
	l.spec.GitHome = s.gitSpec.GitHome
}

// copyGitHome makes the sanitized copy of the user's git configuration
// once per session, in its directory (read-only in the rings), and
// fills spec with it: the agent ring binds the same file
// (shareGitHome), so git's global configuration is read once per launch
// (#29). Without it the worker's Prepare makes its own.
func (s *Session) copyGitHome(spec *sandbox.Spec) {
	if sandbox.WriteGitHome(spec, filepath.Join(s.Dir, ring.GitConfigName)) == nil {
		s.gitSpec.GitHome = spec.GitHome
	}
}
