// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// hookCommand recognises the hook command lite-sandbox's own adapters
// install, as the agent runs it through `/bin/sh -c` (in the agent ring
// that is the shim): exactly `'<exe>' hook NAME`, or the guarded
// `[ -x '<exe>' ] && '<exe>' hook NAME || exit 2`, where exe is the
// session's lite-sandbox binary. Only literal words count: no
// redirects, assignments, substitutions or other statements. It returns
// NAME. Any other command, including any other hook, is not ours and
// goes to the command sandbox like every command.
//
// f is script parsed (nil when it did not parse).
func hookCommand(f *syntax.File, script, exe string) (name string, ok bool) {
	if exe == "" || f == nil || !strings.Contains(script, "hook") || len(f.Stmts) != 1 {
		return "", false
	}
	st := f.Stmts[0]
	if plainStmt(st) {
		return hookCall(st, exe)
	}
	// [ -x EXE ] && EXE hook NAME || exit 2, parsed as ((test && call) || exit).
	or, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || len(st.Redirs) != 0 || st.Negated || st.Background || st.Coprocess || or.Op != syntax.OrStmt {
		return "", false
	}
	and, ok := or.X.Cmd.(*syntax.BinaryCmd)
	if !ok || !plainStmt(or.Y) || len(or.X.Redirs) != 0 || or.X.Negated || and.Op != syntax.AndStmt || !plainStmt(and.X) {
		return "", false
	}
	if w, ok := words(or.Y); !ok || len(w) != 2 || w[0] != "exit" || w[1] != "2" {
		return "", false
	}
	if w, ok := words(and.X); !ok || len(w) != 4 || w[0] != "[" || w[1] != "-x" || w[2] != exe || w[3] != "]" {
		return "", false
	}
	if !plainStmt(and.Y) {
		return "", false
	}
	return hookCall(and.Y, exe)
}

// hookCall matches `EXE hook NAME` with NAME a plain lower-case word.
func hookCall(st *syntax.Stmt, exe string) (string, bool) {
	w, ok := words(st)
	if !ok || len(w) != 3 || w[0] != exe || w[1] != "hook" || w[2] == "" {
		return "", false
	}
	for _, r := range w[2] {
		if r < 'a' || r > 'z' {
			return "", false
		}
	}
	return w[2], true
}

// plainStmt is a simple command with nothing around it.
func plainStmt(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(c.Assigns) == 0 && len(st.Redirs) == 0 && !st.Negated && !st.Background && !st.Coprocess
}

// words decodes a simple command's words, each literal or quoted text
// only.
func words(st *syntax.Stmt) ([]string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		s, ok := literalWord(a)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// literalWord decodes a word made only of literal and quoted text, with
// the shell's quote removal (a backslash escapes the next character
// outside quotes; inside double quotes only $ ` " \ and a newline); any
// expansion makes it not a literal.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			// Unquoted glob and tilde characters would expand: only the
			// test command's own [ and ] are taken as they are.
			if strings.ContainsAny(p.Value, "*?[]~") && p.Value != "[" && p.Value != "]" {
				return "", false
			}
			unescape(&b, p.Value, "")
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				unescape(&b, l.Value, "$`\"\\\n")
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape writes s with its backslash escapes removed: every escape
// when only is "", else only those of the characters in only.
func unescape(b *strings.Builder, s, only string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (only == "" || strings.IndexByte(only, s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue // a line continuation
			}
		}
		b.WriteByte(s[i])
	}
}

// selfCall recognises a command that only calls the session's own shim
// again, `'<shim>' -c 'CMD'` (literal words only), and returns CMD. In
// the agent ring the shell that runs a rewritten command (Codex's hook
// rewrite, run by Codex through `/bin/bash -c`) is itself the shim, and
// the shim's path does not exist in the command sandbox: the inner
// command is what should run there. The validator judges the whole
// command anyway (it unwraps `bash -c`); this only decides what runs.
// f is script parsed (nil when it did not parse).
func selfCall(f *syntax.File, script, shim string) (inner string, ok bool) {
	if shim == "" || f == nil || !strings.Contains(script, "-c") || len(f.Stmts) != 1 || !plainStmt(f.Stmts[0]) {
		return "", false
	}
	w, ok := words(f.Stmts[0])
	if !ok || len(w) != 3 || w[0] != shim || w[1] != "-c" {
		return "", false
	}
	return w[2], true
}
