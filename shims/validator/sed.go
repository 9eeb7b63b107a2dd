// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Class 5 (issue #26, finding 7): GNU sed runs commands. `e COMMAND`
// runs COMMAND with /bin/sh, a program like sh -c's, judged as one; `e`
// alone and the e flag of s/// run the pattern space, text the
// validator cannot see, refused like a script from a pipe. A program
// the validator cannot read is refused too; with --sandbox sed itself
// refuses e, r and w. A script held in a variable is read with its
// unknown parts as plain text (a literal e flag still shows); a -f file
// is read like a script a command names (scriptfile.go).

// sedLongVals are sed's long options that take a value.
var sedLongVals = []string{"--expression", "--file", "--line-length"}

// sed collects sed's program (its -e and -f parts, or its first operand)
// and judges the commands it runs.
func (c *checker) sed(args []arg, node syntax.Node, sc *scope) {
	var parts []arg // the program's pieces, in order; a file piece has file set
	var files []bool
	var operands []arg
	given, sandboxed := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dyn && !strings.HasPrefix(a.prefix, "-") || !a.dyn && (len(a.val) < 2 || a.val[0] != '-') {
			operands = append(operands, a)
			continue
		}
		if !a.dyn && a.val == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		v := a.text()
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v, "=")
			if name == "--sandbox" {
				sandboxed = true
			}
			if !has && i+1 < len(args) && slices.Contains(sedLongVals, name) {
				i++
				val, a = "", args[i]
			} else if has {
				a = arg{val: val, dyn: a.dyn, word: a.word, prefix: strings.TrimPrefix(a.prefix, name+"=")}
			}
			switch name {
			case "--expression":
				parts, files, given = append(parts, a), append(files, false), true
			case "--file":
				parts, files, given = append(parts, a), append(files, true), true
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			ch := v[j]
			if ch == 'i' {
				break // -i[SUFFIX]: the rest is the suffix
			}
			if ch != 'e' && ch != 'f' && ch != 'l' {
				continue
			}
			val := arg{val: v[j+1:], word: a.word}
			if j+1 == len(v) && i+1 < len(args) {
				i++
				val = args[i]
			} else if a.dyn {
				val = arg{dyn: true, word: a.word}
			}
			if ch != 'l' {
				parts, files, given = append(parts, val), append(files, ch == 'f'), true
			}
			break
		}
	}
	if !given && len(operands) > 0 {
		parts, files = operands[:1], []bool{false}
	}
	if sandboxed {
		return
	}
	c.sedProgram(parts, files, node, sc)
}

// sedProgram joins the program's pieces (each -e and -f is a line of
// its own, as sed joins them) and judges what it runs.
func (c *checker) sedProgram(parts []arg, files []bool, node syntax.Node, sc *scope) {
	var lines []string
	at := nodePos(node)
	for i, a := range parts {
		if a.word != nil {
			at = a.pos(at)
		}
		switch {
		case files[i]:
			if a.dyn || c.v.env.Scripts == nil {
				continue // not read: contained by the sandbox
			}
			p, ok := sc.abs(a.val)
			if !ok {
				continue
			}
			if _, denied := c.v.deniedPath(a, sc); denied {
				continue
			}
			if text, ok := c.v.env.Scripts(p); ok {
				lines = append(lines, text)
			}
		case a.dyn:
			lines = append(lines, placeholderText(a.word))
		default:
			lines = append(lines, a.val)
		}
	}
	runs, ok := sedRuns(strings.Join(lines, "\n"))
	if !ok {
		c.deny(idDynScript, "The validator cannot read this sed program, and GNU sed's e command (or the e flag of s///) runs commands from it.",
			hintSed, at, node)
		return
	}
	for _, r := range runs {
		if !r.known {
			c.deny(idDynScript, "sed's e command without a command, or the e flag of s///, runs the pattern space (text from the input) as a shell command, which the validator cannot see.",
				hintSed, at, node)
			return
		}
		cp := *sc
		c.program(r.cmd, at, &cp, stdin{}, true)
		if c.done() {
			return
		}
	}
}

const hintSed = "Run the command directly instead of through sed; use sed only to edit text (sed --sandbox refuses e, r and w)."

// placeholderText is a word's text with each part that is computed at
// run time replaced by "x": what the word says literally around them.
func placeholderText(w *syntax.Word) string {
	if w == nil {
		return "x"
	}
	var b strings.Builder
	var parts func(ps []syntax.WordPart)
	parts = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts)
			default:
				b.WriteString("x")
			}
		}
	}
	parts(w.Parts)
	return b.String()
}
