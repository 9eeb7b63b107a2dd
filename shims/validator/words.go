// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word walks every part of a word: substitutions are nested programs
// (class 2). quoted says the word is inside double quotes or a heredoc.
func (c *checker) word(w *syntax.Word, sc *scope, quoted bool) {
	if w == nil {
		return
	}
	for _, p := range w.Parts {
		if c.done() {
			return
		}
		c.wordPart(p, sc, quoted)
	}
}

func (c *checker) wordPart(p syntax.WordPart, sc *scope, quoted bool) {
	switch x := p.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			c.wordPart(q, sc, true)
		}
	case *syntax.ParamExp:
		c.paramExp(x, sc, quoted)
	case *syntax.CmdSubst:
		cp := *sc // a substitution runs in a subshell
		c.stmts(x.Stmts, &cp, stdin{})
	case *syntax.ProcSubst:
		cp := *sc
		c.stmts(x.Stmts, &cp, stdin{})
	case *syntax.ArithmExp:
		c.arithm(x.X, sc)
	case *syntax.ExtGlob:
	case *syntax.BraceExp:
		for _, e := range x.Elems {
			c.word(e, sc, quoted)
		}
	default:
		c.unsupported(p)
	}
}

func (c *checker) paramExp(x *syntax.ParamExp, sc *scope, quoted bool) {
	if x.NestedParam != nil {
		c.wordPart(x.NestedParam, sc, quoted)
	}
	if x.Index != nil {
		c.arithm(x.Index, sc)
	}
	if x.Slice != nil {
		c.arithm(x.Slice.Offset, sc)
		c.arithm(x.Slice.Length, sc)
	}
	if x.Repl != nil {
		c.word(x.Repl.Orig, sc, quoted)
		c.word(x.Repl.With, sc, quoted)
	}
	if x.Exp == nil {
		return
	}
	c.word(x.Exp.Word, sc, quoted)
	switch x.Exp.Op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		// ${NAME:=v} assigns NAME (class 7).
		if x.Param != nil {
			c.envName(x.Param.Value, x.Pos(), x)
			c.setVar(x.Param.Value, nil, sc)
		}
	case syntax.OtherParamOps:
		// ${x@P} expands the value like a prompt string, which runs the
		// command substitutions it contains: eval in disguise (class 4).
		if x.Exp.Word != nil && x.Exp.Word.Lit() == "P" {
			c.deny(idDynScript, "${var@P} expands the variable like a prompt, running any command substitution in its value, which the validator cannot see.",
				hintDynScript, x.Pos(), x)
		}
	}
}

// arithm walks an arithmetic expression; assignments in it are
// assignments (class 7), and its words may hold substitutions (class 2).
func (c *checker) arithm(e syntax.ArithmExpr, sc *scope) {
	if e == nil || c.done() {
		return
	}
	switch x := e.(type) {
	case *syntax.BinaryArithm:
		switch x.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn,
			syntax.QuoAssgn, syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn,
			syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.AndBoolAssgn,
			syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
			c.arithmTarget(x.X, sc)
		}
		c.arithm(x.X, sc)
		c.arithm(x.Y, sc)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			c.arithmTarget(x.X, sc)
		}
		c.arithm(x.X, sc)
	case *syntax.ParenArithm:
		c.arithm(x.X, sc)
	case *syntax.FlagsArithm:
		c.arithm(x.X, sc)
	case *syntax.Word:
		c.word(x, sc, false)
	default:
		c.unsupported(e)
	}
}

func (c *checker) arithmTarget(e syntax.ArithmExpr, sc *scope) {
	w, ok := e.(*syntax.Word)
	if !ok {
		return
	}
	name := w.Lit()
	if name == "" && len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil {
			name = pe.Param.Value
		}
	}
	if name != "" {
		c.envName(name, w.Pos(), w)
		c.setVar(name, nil, sc)
	}
}

func (c *checker) testExpr(e syntax.TestExpr, sc *scope) {
	if e == nil || c.done() {
		return
	}
	switch x := e.(type) {
	case *syntax.BinaryTest:
		c.testExpr(x.X, sc)
		c.testExpr(x.Y, sc)
	case *syntax.UnaryTest:
		c.testExpr(x.X, sc)
		if x.Op == syntax.TsVarSet {
			// [[ -v 'a[$(id)]' ]] evaluates the subscript (class 2).
			if w, ok := x.X.(*syntax.Word); ok {
				if s, ok := c.decodeOne(w, sc); ok {
					c.subscript(s, w.Pos(), sc)
				}
			}
		}
	case *syntax.ParenTest:
		c.testExpr(x.X, sc)
	case *syntax.Word:
		c.word(x, sc, false)
	default:
		c.unsupported(e)
	}
}

// subscript checks the array subscript of a variable name given as data
// ('a[$(id)]'): Bash evaluates it as arithmetic, which runs command
// substitutions (class 2).
func (c *checker) subscript(name string, at syntax.Pos, sc *scope) {
	i := strings.IndexByte(name, '[')
	j := strings.LastIndexByte(name, ']')
	if i < 0 || j <= i || !strings.ContainsAny(name[i:j], "$`") {
		return
	}
	e, err := c.v.parseArithm(name[i+1 : j])
	if err != nil {
		return // Bash fails on it too
	}
	c.withAnchor(at, func() { c.arithm(e, sc) })
}
