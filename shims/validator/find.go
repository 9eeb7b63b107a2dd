// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// find is judged for what it runs and what it removes (class 4 and
// issue #26, finding 7): `find . -delete` and `find . -exec rm -rf {} +`
// remove what `rm -rf .` removes, so the rules see that rm. The start
// paths stand for the files find visits: -delete is `rm -r START...`,
// and {} in an -exec, -execdir, -ok or -okdir command is replaced by the
// start paths. When the expression narrows what is found by name or
// path (-name '*.pyc', -path, -regex, -empty), with no -o, ! or ,
// that could turn the narrowing around, the files are strictly below
// the start paths: -delete is then not judged as an rm of them, and {}
// stays a name below the working directory.
func (c *checker) find(args []arg, node syntax.Node, sc *scope) {
	starts, expr := findStarts(args)
	narrowed := findNarrowed(expr)
	for _, a := range starts {
		// "$d" may hold "!" or "-not", which find reads as an operator
		// (find ! -name x -delete): nothing is narrowed then.
		narrowed = narrowed && (!a.dyn || a.prefix != "")
	}
	operands := starts
	if narrowed {
		operands = []arg{{val: "{}"}}
	}
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		if a.dyn {
			continue
		}
		switch {
		case findNameTests[a.val]:
			i++ // the pattern, even one spelt -delete
		case a.val == "-delete":
			if !narrowed {
				c.findRun(append([]arg{{val: "rm"}, {val: "-r"}}, starts...), node, sc)
			}
		case a.val == "-exec" || a.val == "-execdir" || a.val == "-ok" || a.val == "-okdir":
			j := findExecEnd(expr, i+1)
			var argv []arg
			for _, t := range expr[i+1 : j] {
				if !t.dyn && t.val == "{}" {
					argv = append(argv, operands...)
					continue
				}
				argv = append(argv, t)
			}
			c.findRun(argv, node, sc)
			i = j
		}
		if c.done() {
			return
		}
	}
}

// findRun judges one command find runs, saying in a rule's reason that
// find runs it.
func (c *checker) findRun(argv []arg, node syntax.Node, sc *scope) {
	note := c.note
	c.note = "find runs this on what it finds: its start paths and everything below them ({} and -delete stand for them)."
	defer func() { c.note = note }()
	c.inner(argv, node, sc, stdin{})
}

// findExecEnd is the index of the ";" or "{} +" that ends the command of
// an -exec starting at i (len(expr) when none does).
func findExecEnd(expr []arg, i int) int {
	j := i
	for ; j < len(expr); j++ {
		t := expr[j]
		if t.dyn {
			continue
		}
		if t.val == ";" || (t.val == "+" && j > i && !expr[j-1].dyn && expr[j-1].val == "{}") {
			break
		}
	}
	return j
}

// findStarts splits find's arguments into its start paths and its
// expression, after the options -H, -L, -P, -D X and -OLEVEL. With no
// start path find starts at ".". A dynamic word that does not start
// with "-" is taken for a start path (it could be any directory).
func findStarts(args []arg) (starts, expr []arg) {
	i := 0
	for i < len(args) && !args[i].dyn {
		v := args[i].val
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") {
			i++
			continue
		}
		if v == "-D" {
			i += 2
			continue
		}
		break
	}
	i = min(i, len(args))
	j := i
	for ; j < len(args); j++ {
		a := args[j]
		t := a.text()
		if strings.HasPrefix(t, "-") || (!a.dyn && (t == "(" || t == "!" || t == "," || t == ")")) {
			break
		}
	}
	starts, expr = args[i:j], args[j:]
	if len(starts) == 0 {
		starts = []arg{{val: "."}}
	}
	return starts, expr
}

// findNameTests are the tests that narrow what find finds by name or
// path, and -empty (what is removed holds nothing).
var findNameTests = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
	"-lname": true, "-ilname": true, "-regex": true, "-iregex": true,
}

// findNarrowed reports whether the expression surely finds only some of
// the files below the start paths: every -o alternative has a name or
// path test with a literal pattern that is more than stars (or -empty)
// that no ! or -not turns around, and every action comes after such a
// test of its alternative (`\( -name a -o -name b \) -delete`, `-path
// ./keep -prune -o -name '*.o' -delete`; not `-exec rm {} + -name x`). A
// ",", a negated group, or a word computed at run time (it could be any
// operator) gives up. The words of an -exec command are skipped.
func findNarrowed(expr []arg) bool {
	seg := false // the current -o alternative has a narrowing test
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		if a.dyn {
			return false
		}
		v := a.val
		neg := i > 0 && !expr[i-1].dyn && (expr[i-1].val == "!" || expr[i-1].val == "-not")
		switch {
		case v == ",":
			return false
		case v == "-o" || v == "-or":
			if !seg {
				return false
			}
			seg = false
		case (v == "!" || v == "-not") && i+1 < len(expr) && !expr[i+1].dyn && expr[i+1].val == "(":
			return false
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir" || v == "-delete":
			if !seg {
				return false // an action before any test: it sees every file
			}
			if v != "-delete" {
				i = findExecEnd(expr, i+1)
			}
		case v == "-empty":
			seg = seg || !neg
		case findNameTests[v] && i+1 < len(expr):
			i++
			p := expr[i]
			seg = seg || (!neg && !p.dyn && strings.Trim(p.val, "*.^$+?()") != "")
		}
	}
	return seg
}
