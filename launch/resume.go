// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"io"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
)

// printResume prints the routed way back into the session the agent just
// ended, when its adapter can find one ([agents.Resumer]): the agent's
// own hint on exit would resume it outside lite-sandbox.
func printResume(w io.Writer, a agents.Agent, info agents.Session, since time.Time) {
	r, ok := a.(agents.Resumer)
	if !ok {
		return
	}
	args, ok := r.ResumeArgs(info, since)
	if !ok {
		return
	}
	esc.Fprintf(w, "lite-sandbox: to resume this session in the sandbox: %s\n", resumeCommand(a.Name(), args))
}

// resumeCommand is the command line that launches agent with args.
func resumeCommand(agent string, args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@%+,", r))
		}) {
			q[i] = agents.ShellQuote(a)
		}
	}
	return "lite-sandbox launch " + agent + " -- " + strings.Join(q, " ")
}
