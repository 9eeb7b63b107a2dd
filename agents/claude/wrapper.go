// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Wrapper is a recognised wrapper: the model's command, the cwd file of
// its final `pwd -P >| FILE`, and where in the script the parts are that
// [Wrapper.WithCwdFD] rewrites.
type Wrapper struct {
	Model   string // the argument of eval: the model's command
	CwdFile string // the file Claude reads the final directory back from

	script         string
	closeAfter     []uint // ends of the source and eval statements
	pwdFrom, pwdTo uint   // the `>| FILE` redirect
}

// parseWrapper is [Unwrap] with the wrapper's parts; f is script
// parsed already (by the shim), or nil to parse it here.
func parseWrapper(f *syntax.File, script string) (w Wrapper, ok bool) {
	if !strings.Contains(script, "eval") || !strings.Contains(script, "pwd -P") {
		return w, false
	}
	if f == nil {
		var err error
		if f, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), ""); err != nil {
			return w, false
		}
	}
	if len(f.Stmts) != 1 {
		return w, false
	}
	w.script = script
	var steps []step
	if !flatten(f.Stmts[0], "", &steps) {
		return w, false
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
		w.closeAfter = append(w.closeAfter, s.stmt.End().Offset())
		if len(callOf(s.stmt).Args) != 2 || !onlyDevNullRedirs(s.stmt) {
			return w, false
		}
		if t := next(); t == nil || t.op != "||" || !isCall(t.stmt, "true") {
			return w, false
		}
		if s = next(); s == nil || s.op != "&&" {
			return w, false
		}
	}
	if s == nil || !isExtglobOff(s.stmt) {
		return w, false
	}
	if t := next(); t == nil || t.op != "||" || !isCall(t.stmt, "true") {
		return w, false
	}
	e := next()
	if e == nil || e.op != "&&" || !isCall(e.stmt, "eval") || !onlyDevNullRedirs(e.stmt) {
		return w, false
	}
	args := callOf(e.stmt).Args
	if len(args) != 2 {
		return w, false
	}
	model, err := literal(args[1])
	if err != nil {
		return w, false
	}
	w.Model = model
	w.closeAfter = append(w.closeAfter, e.stmt.End().Offset())
	p := next()
	if p == nil || p.op != "&&" || !isCall(p.stmt, "pwd") || next() != nil {
		return w, false
	}
	pc := callOf(p.stmt)
	if len(pc.Args) != 2 || litOf(pc.Args[1]) != "-P" || len(p.stmt.Redirs) != 1 || p.stmt.Redirs[0].Op != syntax.RdrClob {
		return w, false
	}
	rd := p.stmt.Redirs[0]
	if w.CwdFile, err = literal(rd.Word); err != nil {
		return w, false
	}
	w.pwdFrom, w.pwdTo = rd.OpPos.Offset(), rd.Word.End().Offset()
	return w, true
}

// Unwrap implements [agents.Unwrapper] on the shim's parse of script
// (f; nil: parsed here). It recognises the wrapper Claude Code puts
// around every Bash tool call (docs/agents.md §3.3):
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
func (Agent) Unwrap(f *syntax.File, script string) (cmd string, ok bool) {
	w, ok := parseWrapper(f, script)
	if !ok {
		return "", false
	}
	return w.Model, true
}

// CwdFile implements [agents.CwdReporter].
func (Agent) CwdFile(f *syntax.File, script string) (string, func(fd int) string, bool) {
	w, ok := parseWrapper(f, script)
	if !ok {
		return "", nil, false
	}
	return w.CwdFile, w.WithCwdFD, true
}

// WithCwdFD returns the wrapper with `pwd -P >| FILE` turned into
// `pwd -P >&FD` and the descriptor closed for the snapshot's source and
// the model's eval: the model's command (and anything it leaves running
// in the background) never gets it, so only the wrapper's own pwd can
// tell Claude where the next command starts. fd < 0 sends the pwd to
// /dev/null (a cwd file the shim refused).
func (w Wrapper) WithCwdFD(fd int) string {
	if fd < 0 {
		return w.rewrite(">/dev/null", "")
	}
	n := strconv.Itoa(fd)
	return w.rewrite(">&"+n, " "+n+">&-")
}

// rewrite replaces the pwd's redirect by redir and appends closeFD to
// the source and eval statements.
func (w Wrapper) rewrite(redir, closeFD string) string {
	type edit struct {
		from, to uint
		text     string
	}
	edits := []edit{{w.pwdFrom, w.pwdTo, redir}}
	if closeFD != "" {
		for _, end := range w.closeAfter {
			edits = append(edits, edit{end, end, closeFD})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	s := w.script
	for _, e := range edits {
		s = s[:e.from] + e.text + s[e.to:]
	}
	return s
}

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
