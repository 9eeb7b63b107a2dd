// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Unwrap recognises the wrapper Claude Code puts around every Bash
// tool call (docs/agents.md §3.3):
//
//	source SNAP 2>/dev/null || true && shopt -u extglob 2>/dev/null || true &&
//	eval 'CMD' < /dev/null && pwd -P >| CWDFILE
//
// (the source part is absent when the snapshot failed, the < /dev/null is
// absent for heredocs, and zsh gets a { shopt ... || setopt ...; } group).
// It returns the model's command, the argument of eval, so that the
// validator judges and explains that command rather than the wrapper.
// Anything that differs from the shape returns ok == false, and the
// caller validates the whole string as it is (which still unwraps eval
// recursively, so nothing escapes validation either way).
func Unwrap(script string) (cmd string, ok bool) {
	if !strings.Contains(script, "eval") || !strings.Contains(script, "pwd -P") {
		return "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	var steps []step
	if !flatten(f.Stmts[0], "", &steps) {
		return "", false
	}
	// Expected sequence of (operator before, what) pairs.
	i := 0
	next := func() *step {
		if i >= len(steps) {
			return nil
		}
		i++
		return &steps[i-1]
	}
	s := next()
	if s != nil && isCall(s.stmt, "source") {
		if len(callOf(s.stmt).Args) != 2 || !onlyDevNullRedirs(s.stmt) {
			return "", false
		}
		if t := next(); t == nil || t.op != "||" || !isCall(t.stmt, "true") {
			return "", false
		}
		if s = next(); s == nil || s.op != "&&" {
			return "", false
		}
	}
	if s == nil || !isExtglobOff(s.stmt) {
		return "", false
	}
	if t := next(); t == nil || t.op != "||" || !isCall(t.stmt, "true") {
		return "", false
	}
	e := next()
	if e == nil || e.op != "&&" || !isCall(e.stmt, "eval") || !onlyDevNullRedirs(e.stmt) {
		return "", false
	}
	args := callOf(e.stmt).Args
	if len(args) != 2 {
		return "", false
	}
	model, err := literal(args[1])
	if err != nil {
		return "", false
	}
	p := next()
	if p == nil || p.op != "&&" || !isCall(p.stmt, "pwd") || next() != nil {
		return "", false
	}
	pc := callOf(p.stmt)
	if len(pc.Args) != 2 || litOf(pc.Args[1]) != "-P" || len(p.stmt.Redirs) != 1 || p.stmt.Redirs[0].Op != syntax.ClbOut {
		return "", false
	}
	if _, err := literal(p.stmt.Redirs[0].Word); err != nil {
		return "", false
	}
	return model, true
}

// Unwrap is [Unwrap]: Claude's adapter is an [agents.Unwrapper].
func (Agent) Unwrap(script string) (cmd string, ok bool) { return Unwrap(script) }

type step struct {
	op   string // "", "&&" or "||": the operator joining it to the previous step
	stmt *syntax.Stmt
}

// flatten turns the left-associative &&/|| chain into a list.
func flatten(s *syntax.Stmt, op string, out *[]step) bool {
	if s.Negated || s.Background || s.Coprocess {
		return false
	}
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 {
		var bop string
		switch b.Op {
		case syntax.AndStmt:
			bop = "&&"
		case syntax.OrStmt:
			bop = "||"
		default:
			return false
		}
		return flatten(b.X, op, out) && flatten(b.Y, bop, out)
	}
	*out = append(*out, step{op: op, stmt: s})
	return true
}

func callOf(s *syntax.Stmt) *syntax.CallExpr {
	c, _ := s.Cmd.(*syntax.CallExpr)
	return c
}

func isCall(s *syntax.Stmt, name string) bool {
	c := callOf(s)
	return c != nil && len(c.Assigns) == 0 && len(c.Args) > 0 && litOf(c.Args[0]) == name
}

func litOf(w *syntax.Word) string { return w.Lit() }

// onlyDevNullRedirs accepts 2>/dev/null and </dev/null, nothing else.
func onlyDevNullRedirs(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		if r.Word == nil || r.Word.Lit() != "/dev/null" || r.Hdoc != nil {
			return false
		}
		switch {
		case r.Op == syntax.RdrIn && r.N == nil:
		case r.Op == syntax.RdrOut && r.N != nil && r.N.Value == "2":
		default:
			return false
		}
	}
	return true
}

// isExtglobOff matches `shopt -u extglob 2>/dev/null` and the zsh form
// `{ shopt -u extglob || setopt NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL; } 2>/dev/null`.
func isExtglobOff(s *syntax.Stmt) bool {
	if !onlyDevNullRedirs(s) {
		return false
	}
	if isShopt(s) {
		return true
	}
	b, ok := s.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) != 1 {
		return false
	}
	var steps []step
	if !flatten(b.Stmts[0], "", &steps) || len(steps) != 2 || steps[1].op != "||" {
		return false
	}
	if !isShopt(steps[0].stmt) || !isCall(steps[1].stmt, "setopt") || len(steps[1].stmt.Redirs) != 0 {
		return false
	}
	for _, a := range callOf(steps[1].stmt).Args[1:] {
		if v := a.Lit(); v != "NO_EXTENDED_GLOB" && v != "NO_BARE_GLOB_QUAL" {
			return false
		}
	}
	return true
}

func isShopt(s *syntax.Stmt) bool {
	if !isCall(s, "shopt") {
		return false
	}
	a := callOf(s).Args
	return len(a) == 3 && a[1].Lit() == "-u" && a[2].Lit() == "extglob"
}

var errDynamic = errors.New("word is not a literal")

// literal decodes a word made only of literal and quoted text (Claude
// quotes with '...' and '"'"' for embedded single quotes). Any expansion
// makes it dynamic.
func literal(w *syntax.Word) (string, error) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", errDynamic
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "", errDynamic
				}
			}
		default:
			return "", errDynamic
		}
	}
	return expand.Literal(&expand.Config{}, w)
}
