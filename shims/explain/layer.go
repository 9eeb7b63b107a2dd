// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

// Layer is the part of lite-sandbox that acted on a command. Every line
// written for the model or the user after a refusal names it and the
// sandbox mode in force, so that "blocked" never leaves the reader
// guessing whether a rule, the OS sandbox or the agent's own ring stood
// in the way, and a line never blames a sandbox that is off.
type Layer int

// The layers.
const (
	// LayerValidator: a rule of the validator refused the command before
	// anything ran.
	LayerValidator Layer = iota
	// LayerSandbox: the OS sandbox around the command refused an action
	// while it ran.
	LayerSandbox
	// LayerRing: the agent ring (the mount namespace around the agent
	// process under launch, issue #8) refused an action of the agent's
	// own tools.
	LayerRing
)

// String names the layer as the lines do.
func (l Layer) String() string {
	switch l {
	case LayerValidator:
		return "the validator"
	case LayerSandbox:
		return "the sandbox"
	case LayerRing:
		return "the agent ring"
	}
	return "lite-sandbox"
}

// Tag is the suffix that names the layer and the mode, for example
// " [by the validator; sandbox mode auto]", or with the sandbox not in
// force " [by the validator; sandbox mode off: commands run unsandboxed]".
// sandboxed is whether commands run in the OS sandbox.
func Tag(l Layer, mode string, sandboxed bool) string {
	t := " [by " + l.String() + "; sandbox mode " + mode
	if !sandboxed {
		t += ": commands run unsandboxed"
	}
	return t + "]"
}
