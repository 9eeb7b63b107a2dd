// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import "mvdan.cc/sh/v3/syntax"

// command walks one command node. The default case fails closed.
func (c *checker) command(cmd syntax.Command, sc *scope, in stdin) {
	if c.done() {
		return
	}
	switch x := cmd.(type) {
	case *syntax.CallExpr:
		c.callExpr(x, sc, in)
	case *syntax.BinaryCmd:
		c.binaryCmd(x, sc, in)
	case *syntax.Subshell:
		cp := *sc
		c.stmts(x.Stmts, &cp, in)
	case *syntax.Block:
		c.stmts(x.Stmts, sc, in)
	case *syntax.IfClause:
		c.ifClause(x, sc, in)
	case *syntax.WhileClause:
		c.loop(sc, func(s *scope) {
			c.stmts(x.Cond, s, in)
			c.stmts(x.Do, s, in)
		})
	case *syntax.ForClause:
		c.forClause(x, sc, in)
	case *syntax.CaseClause:
		c.word(x.Word, sc, false)
		out := *sc
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				c.word(p, sc, false)
			}
			br := *sc
			c.stmts(it.Stmts, &br, in)
			out = out.join(br)
		}
		*sc = out
	case *syntax.FuncDecl:
		// The body runs when the function is called; check it now, in a
		// copy of the scope (a function can shadow a command name, but
		// its body is checked like any other code).
		body := *sc
		c.stmt(x.Body, &body, stdin{})
	case *syntax.ArithmCmd:
		c.arithm(x.X, sc)
	case *syntax.TestClause:
		c.testExpr(x.X, sc)
	case *syntax.DeclClause:
		c.declClause(x, sc)
	case *syntax.LetClause:
		for _, e := range x.Exprs {
			c.arithm(e, sc)
		}
	case *syntax.TimeClause:
		c.stmt(x.Stmt, sc, in)
	case *syntax.CoprocClause:
		if x.Name != nil {
			c.word(x.Name, sc, false)
		}
		cp := *sc
		c.stmt(x.Stmt, &cp, stdin{})
	default:
		c.unsupported(cmd)
	}
}

// binaryCmd checks a chain of &&, || and pipes. The parser nests chains
// to the left (a && b && c is (a && b) && c, and 100,000 pipes are
// 100,000 levels), so the chain is walked iteratively along its left
// spine rather than recursively. Pipes bind tighter than && and ||, so
// pipe levels are the innermost part of a spine.
func (c *checker) binaryCmd(x *syntax.BinaryCmd, sc *scope, in stdin) {
	spine := []*syntax.BinaryCmd{x}
	for {
		l := spine[len(spine)-1].X
		b, ok := l.Cmd.(*syntax.BinaryCmd)
		if !ok || len(l.Redirs) > 0 || l.Negated || l.Background || l.Coprocess || l.Disown {
			break
		}
		spine = append(spine, b)
	}
	start := *sc
	if innermost := spine[len(spine)-1]; isPipe(innermost.Op) {
		l := start // each side of a pipeline runs in a subshell
		c.stmt(innermost.X, &l, in)
	} else {
		c.stmt(innermost.X, sc, in)
	}
	for j := len(spine) - 1; j >= 0 && !c.done(); j-- {
		b := spine[j]
		switch b.Op {
		case syntax.Pipe, syntax.PipeAll:
			r := start
			c.stmt(b.Y, &r, stdin{pipe: true})
		case syntax.AndStmt:
			left := *sc
			c.stmt(b.Y, sc, in)
			*sc = left.join(*sc) // the right side may not run
		case syntax.OrStmt:
			// The right side runs when the left failed, possibly half
			// way through.
			left := *sc
			right := start.join(left)
			c.stmt(b.Y, &right, in)
			*sc = left.join(right)
		default:
			c.unsupported(b)
			return
		}
	}
}

func isPipe(op syntax.BinCmdOperator) bool { return op == syntax.Pipe || op == syntax.PipeAll }

func (c *checker) ifClause(x *syntax.IfClause, sc *scope, in stdin) {
	c.stmts(x.Cond, sc, in)
	then := *sc
	c.stmts(x.Then, &then, in)
	els := *sc
	if x.Else != nil {
		c.ifClause(x.Else, &els, in)
	}
	*sc = then.join(els)
}

// loop checks a loop body; when the body changes the scope (cd in a loop),
// it is checked a second time with what is known after any number of
// iterations.
func (c *checker) loop(sc *scope, body func(*scope)) {
	first := *sc
	steps := c.steps
	body(&first)
	if first == *sc || c.done() {
		return
	}
	merged := sc.join(first)
	if cost := c.steps - steps; c.extra+cost <= maxExtraSteps {
		c.extra += cost
		again := merged
		body(&again)
		merged = merged.join(again)
	}
	*sc = merged
}

func (c *checker) forClause(x *syntax.ForClause, sc *scope, in stdin) {
	switch l := x.Loop.(type) {
	case *syntax.WordIter:
		for _, w := range l.Items {
			c.word(w, sc, false)
		}
		if l.Name != nil {
			// for PS4 in '$(id)'; do ... assigns PS4 (class 7).
			c.envName(l.Name.Value, l.Name.Pos(), x)
			c.setVar(l.Name.Value, nil, sc)
		}
	case *syntax.CStyleLoop:
		c.arithm(l.Init, sc)
		c.arithm(l.Cond, sc)
		c.arithm(l.Post, sc)
	default:
		c.unsupported(x.Loop)
		return
	}
	c.loop(sc, func(s *scope) { c.stmts(x.Do, s, in) })
}

// callExpr checks a simple command: its assignments, the substitutions in
// its words, then the decoded argv against the rules and wrappers, then
// the paths it names.
func (c *checker) callExpr(x *syntax.CallExpr, sc *scope, in stdin) {
	for _, a := range x.Assigns {
		c.assign(a, sc, len(x.Args) == 0, x)
	}
	for _, w := range x.Args {
		c.word(w, sc, false)
	}
	if len(x.Args) == 0 || c.done() {
		return
	}
	var argv []arg
	for _, w := range x.Args {
		argv = append(argv, c.decode(w, sc)...)
	}
	before := *sc
	c.call(argv, x, sc, in)
	for _, a := range argv {
		if c.done() {
			return
		}
		c.checkDenied(a, &before, x)
	}
}
