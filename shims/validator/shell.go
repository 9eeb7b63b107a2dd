// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shell handles sh, bash and friends: -c STRING is a program; so is a
// script read from a heredoc or here-string; a script read from a pipe
// cannot be seen; a script file is confined by the sandbox.
func (c *checker) shell(args []arg, node syntax.Node, sc *scope, in stdin) {
	cmode, smode, maybe := false, false, false
	i := 0
options:
	for i < len(args) {
		a := args[i]
		if a.dyn {
			if t := a.prefix; strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
				maybe = true // an option computed at run time might be -c
				i++
				continue
			}
			break
		}
		s := a.val
		switch {
		case s == "--" || s == "-":
			i++
			break options
		case len(s) < 2 || (s[0] != '-' && s[0] != '+'):
			break options
		case strings.HasPrefix(s, "--"):
			i++
			if s == "--rcfile" || s == "--init-file" {
				i++
			}
			continue
		}
		i++
		for _, ch := range s[1:] {
			switch ch {
			case 'c':
				cmode = cmode || s[0] == '-'
			case 's':
				smode = smode || s[0] == '-'
			case 'o', 'O':
				i++ // -o OPTION
			}
		}
	}
	cp := *sc // a new shell process: nothing it does comes back
	cp.cdpath = false
	switch {
	case cmode || maybe:
		switch {
		case i < len(args):
			c.script(args[i], node, &cp, stdin{}, "this shell")
		case in.xargs:
			// xargs sh -c: the script is read from xargs' input.
			c.script(arg{dyn: true}, node, &cp, stdin{}, "this shell")
		}
	case !smode && i < len(args):
		// bash script.sh: its commands are judged when it can be read
		// (scriptfile.go); the sandbox confines it either way.
		c.fileScript(args[i], node, &cp, in, "this shell")
	default:
		c.stdinScript(node, &cp, in)
	}
}

// stdinScript checks the script a shell reads from its standard input.
func (c *checker) stdinScript(node syntax.Node, sc *scope, in stdin) {
	r := in.redir
	switch {
	case r != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc):
		if r.Hdoc == nil {
			return // an empty body (the fuzzer found the nil Hdoc)
		}
		if in.quoted {
			var b strings.Builder
			for _, p := range r.Hdoc.Parts {
				if l, ok := p.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
			c.program(b.String(), r.Hdoc.Pos(), sc, stdin{}, true)
			return
		}
		c.script(c.heredocBody(r.Hdoc, sc), node, sc, stdin{}, "this shell (from its heredoc)")
	case r != nil && r.Op == syntax.WordHdoc:
		a := arg{dyn: true, word: r.Word}
		if s, ok := c.decodeOne(r.Word, sc); ok {
			a = arg{val: s, word: r.Word}
		}
		c.script(a, node, sc, stdin{}, "this shell (from its here-string)")
	case r != nil && procSubst(r.Word):
		c.fileScript(arg{dyn: true, word: r.Word}, node, sc, in, "this shell")
	case r != nil && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut):
		// bash < script.sh: judged like bash script.sh.
		if a, ok := c.decodeOne(r.Word, sc); ok {
			c.namedScript(arg{val: a, word: r.Word}, node, sc, false)
		}
	case in.pipe:
		c.deny(idDynScript, "The validator cannot see the script this shell reads from a pipe.",
			"Run the commands directly, or pass the script literally with sh -c '...'.", nodePos(node), node)
	}
}

// heredocBody decodes an unquoted heredoc body, which the outer shell
// expands before the inner shell parses it.
func (c *checker) heredocBody(w *syntax.Word, sc *scope) arg {
	if w == nil {
		return arg{val: ""}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
		case *syntax.ParamExp:
			if !knownParam(p, sc) {
				return arg{dyn: true, word: w}
			}
		default:
			return arg{dyn: true, word: w}
		}
	}
	s, err := expandDocument(w, sc)
	if err != nil {
		return arg{dyn: true, word: w}
	}
	return arg{val: s, word: w}
}
