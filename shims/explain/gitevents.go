// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package explain

import (
	"bufio"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/hostpath"
)

// Git's own record of a configuration write it could not make (issue
// #31 finding 5). The static reading of the command line (git.go) knows
// only the git commands it names; a program it runs (husky's `npm
// install` runs `git config core.hooksPath .husky/_` and exits 0 when
// that fails; `git submodule update --init` runs `git submodule--helper`)
// writes .git/config half-way and fails on the read-only file unseen. Git
// reports that as a trace2 "error" event, which the sandbox collects
// ([sandbox.Spec.GitEvents]); these lines name the git command and what
// to run on the host, whatever the command's status.

// gitEventsMax bounds what is read of an events file (a build running
// git thousands of times); gitEventsLine bounds one event.
const (
	gitEventsMax  = 8 << 20
	gitEventsLine = 64 << 10
)

// gitEvent is the part of a trace2 event read here.
type gitEvent struct {
	Event string   `json:"event"`
	Sid   string   `json:"sid"`
	Msg   string   `json:"msg"`
	Fmt   string   `json:"fmt"`
	Argv  []string `json:"argv"`
}

// configWriteErrors are the formats of git's errors (config.c) when it
// cannot lock or replace a configuration file: "%s" is the file.
var configWriteErrors = []string{"could not write config file %s", "could not lock config file %s"}

// GitEventLines reads git's trace2 events of one command (written inside
// the sandbox: read as untrusted text) and returns a line for each git
// command that could not write the repository's protected configuration
// or the read-only copy of the user's global one, naming the outermost
// git command of its process tree.
func GitEventLines(r io.Reader, c Context) []string {
	starts := map[string][]string{}
	var out []string
	br := bufio.NewReaderSize(io.LimitReader(r, gitEventsMax), gitEventsLine)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// An event longer than any git writes for these: skip it.
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			continue
		}
		if len(line) > 0 {
			if l := c.gitEvent(line, starts); l != "" && len(out) < maxLines && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
		if err != nil {
			return out
		}
	}
}

// gitEvent records a start event's argv in starts, and returns the line
// for an error event that is a refused write of git's configuration.
func (c Context) gitEvent(line []byte, starts map[string][]string) string {
	s := string(line)
	if !strings.Contains(s, `"event":"start"`) && !strings.Contains(s, `"event":"error"`) {
		return ""
	}
	var e gitEvent
	if json.Unmarshal(line, &e) != nil {
		return ""
	}
	if e.Event == "start" {
		if len(starts) < 4096 {
			starts[e.Sid] = e.Argv
		}
		return ""
	}
	if e.Event != "error" {
		return ""
	}
	file := ""
	for _, f := range configWriteErrors {
		if pre, suf, ok := strings.Cut(e.Fmt, "%s"); ok && strings.HasPrefix(e.Fmt, f) {
			if rest, ok := strings.CutPrefix(e.Msg, pre); ok {
				file, _ = strings.CutSuffix(rest, suf)
			}
		}
	}
	if file == "" || !filepath.IsAbs(file) {
		return ""
	}
	// The outermost git of the process tree: the one the command ran
	// (its sid is the first of the chain).
	root, _, _ := strings.Cut(e.Sid, "/")
	argv := starts[root]
	if len(argv) == 0 {
		argv = starts[e.Sid]
	}
	return c.gitEventLine(filepath.Clean(file), argv)
}

// gitEventLine is the line for git command argv that could not write
// file, or "" when file is neither protected nor the global copy.
func (c Context) gitEventLine(file string, argv []string) string {
	what := "a git command run by this command"
	if len(argv) > 0 {
		what = `"` + quoteArgv(argv) + `", run by this command,`
	}
	if c.Home != "" && file == filepath.Join(c.Home, ".gitconfig") {
		return "lite-sandbox: ~/.gitconfig (the user's git settings: identity, aliases, hooks; no credentials) is read-only in the sandbox: " + what + " could not save its setting there; commits keep the user's identity; a setting is changed on the host, with git config --global"
	}
	for _, p := range c.Protect {
		if hostpath.Within(file, p) {
			shown := file
			if rel, err := filepath.Rel(c.Workspace, file); err == nil && hostpath.Within(file, c.Workspace) {
				shown = rel
			}
			return "lite-sandbox: " + what + " could not write " + shown + ", which is read-only in the sandbox because the host's git acts on it: that setting is not in effect and the git command stopped there (if it is wanted, ask the user to run that git command on the host)"
		}
	}
	return ""
}

// quoteArgv renders argv as a shell would read it back, quoting words
// with anything but plain characters.
func quoteArgv(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+%") == "" {
			words[i] = a
			continue
		}
		words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}
