// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// Call is one simple command of a traced program, after the validator's
// unwrapping of wrappers and nested scripts (env, nice, sh -c, ...): its
// decoded argv ("" for a word computed at run time) and the directory it
// starts in ("" when unknown, for example after cd "$d").
type Call struct {
	Argv []string
	Dir  string
}

// Write is a file a redirect of a traced program writes: its decoded
// path (as written, ~ expanded) and the directory a relative one is
// relative to ("" when unknown).
type Write struct {
	Path string
	Dir  string
}

// tracer collects what a walk saw.
type tracer struct {
	calls  []Call
	writes []Write
}

// Trace walks a command as [Validator.Check] does and returns its simple
// commands and redirect writes, applying no rule: the sandbox's
// explanations after a failed command (package shims/explain) read the
// command through the same parser, decoding and unwrapping as the
// decision did. A command that does not parse traces to nothing; a
// construct the validator refuses (a dynamic command name, say) ends the
// walk there.
func Trace(command string, env Env) ([]Call, []Write) {
	v, err := compile(&policy.Policy{}, env)
	if err != nil {
		return nil, nil
	}
	t := &tracer{}
	func() {
		defer func() { recover() }() // best effort: a trace never fails its caller
		c := newChecker(v)
		c.trace = t
		sc := c.initialScope()
		c.program(command, syntax.Pos{}, &sc, stdin{}, false)
	}()
	return t.calls, t.writes
}

// Traced is what a command did as the judging walk read it: its simple
// commands and redirect writes, as [Trace] returns them.
type Traced struct {
	Calls  []Call
	Writes []Write
}

// CheckTraced is [Validator.Check] that also records the command's
// calls and writes on the same walk, so that the explanations after it
// ran (package shims/explain) read the very parse the decision came
// from (one parse per command). When the result is a denial the trace
// may stop where the walk did.
func (v *Validator) CheckTraced(command string) (Result, Traced) {
	t := &tracer{}
	res := v.check(command, t)
	return res, Traced{Calls: t.calls, Writes: t.writes}
}

// CheckTracedFile is [Validator.CheckTraced] of a command line the caller
// parsed already with [Validator.Parse] (f, or the parse's err): the
// command is parsed once for every step that looks at it (#19).
func (v *Validator) CheckTracedFile(command string, f *syntax.File, err error) (Result, Traced) {
	t := &tracer{}
	res := v.checkWith(t, func(c *checker, sc *scope) {
		if strings.IndexByte(command, 0) >= 0 {
			c.program(command, syntax.Pos{}, sc, stdin{}, false) // says why
			return
		}
		c.programFile(command, f, err, syntax.Pos{}, sc, stdin{}, false)
	})
	return res, Traced{Calls: t.calls, Writes: t.writes}
}

// Parse parses a command line as the validator does (Bash, comments
// kept), for callers that look at its shape before judging it.
func (v *Validator) Parse(command string) (*syntax.File, error) { return v.parse(command) }

// traceCall records a decoded simple command.
func (c *checker) traceCall(argv []arg, sc *scope) {
	if c.trace == nil {
		return
	}
	call := Call{Argv: make([]string, len(argv))}
	for i, a := range argv {
		if !a.dyn {
			call.Argv[i] = a.val
		}
	}
	if sc.cwdOK {
		call.Dir = sc.cwd
	}
	c.trace.calls = append(c.trace.calls, call)
}

// traceWrite records the files a writing redirect names.
func (c *checker) traceWrite(r *syntax.Redirect, sc *scope) {
	if c.trace == nil || r.Word == nil {
		return
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
	default:
		return
	}
	dir := ""
	if sc.cwdOK {
		dir = sc.cwd
	}
	for _, a := range c.decode(r.Word, sc) {
		if !a.dyn {
			c.trace.writes = append(c.trace.writes, Write{Path: a.val, Dir: dir})
		}
	}
}
