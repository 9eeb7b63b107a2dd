// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
	"github.com/lite-sandbox/lite-sandbox/shims/explain"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// DenialMessage is the line for a refusal of the validator, naming the
// layer and the mode in force.
func (s *Shim) DenialMessage(r validator.Result) string {
	return DenialLine(r, s.Mode, s.session != nil)
}

// DenialLine is the validator's refusal r as one line that names the
// layer and the sandbox mode in force, for a run in mode m (in a
// session or not).
func DenialLine(r validator.Result, m policy.Mode, session bool) string {
	if r.Allowed() {
		return ""
	}
	sandboxed := m != policy.ModeOff
	if !session {
		sandboxed = !config.Unsandboxed(m)
	}
	return r.Message() + explain.Tag(explain.LayerValidator, string(m), sandboxed)
}

// explain writes, after a command ran in the sandbox, the lines of
// package explain: the likely denials when it failed, and the writes
// to the scratch home that will vanish whatever its status.
func (s *Shim) explain(status int) {
	if s.v.command == "" {
		return
	}
	failed := failedOwn(status)
	home := runtime.GOOS == "linux" && s.Home != "" && explain.MayReachHome(s.v.command, s.Home)
	events := s.readGitEvents()
	if !failed && !home && events == nil {
		// The common case: a command that succeeded and names nothing in
		// the home. The context below reads the disk (DetectHost), which
		// the per-command path should not pay for nothing.
		return
	}
	tag := explain.Tag(explain.LayerSandbox, string(s.Mode), true)
	c := s.explainContext()
	lines := explain.GitEventLines(bytes.NewReader(events), c)
	// Git's own record names the command that failed; the reading of the
	// command line would say the same less precisely.
	gitKnown := len(lines) > 0
	if failed {
		var ls []string
		if s.trace != nil {
			ls = explain.LinesOf(*s.trace, c)
		} else {
			ls = explain.Lines(s.v.command, c)
		}
		for _, l := range ls {
			if gitKnown && explain.IsGitConfigLine(l) {
				continue
			}
			if !strings.Contains(l, "is in the home directory") || runtime.GOOS != "linux" {
				lines = append(lines, l)
			}
		}
	}
	if home && s.trace != nil {
		lines = append(lines, explain.HomeLinesOf(s.v.command, *s.trace, c, s.session != nil)...)
	} else if home {
		lines = append(lines, explain.HomeLines(s.v.command, c, s.session != nil)...)
	}
	for _, l := range lines {
		fmt.Fprintln(s.stderr, esc.Text(l)+tag)
	}
}

// failedOwn reports whether a command's status is a failure of its own,
// to be explained: not 0, and not a death by signal (128+N, N up to 64,
// which the person or a timeout caused). 255 is one: ssh exits with it
// when the connection fails, as do other tools for a fatal error.
func failedOwn(status int) bool {
	return status != 0 && (status <= 128 || status > 128+64)
}
