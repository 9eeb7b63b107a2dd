// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"errors"
	"io"
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// scope is what the walk knows of the shell's state at one point of the
// program: the current directory, what ~ means, and whether CDPATH was
// set. Unknown values make the words that depend on them dynamic, so the
// rules fail closed (class 9: "no path argument" means the cwd).
type scope struct {
	cwd    string
	cwdOK  bool
	home   string
	homeOK bool
	cdpath bool // CDPATH was assigned: a relative cd may go anywhere
	tmp    string
	tmpOK  bool
	script bool // CheckScript: an unknown word matches no path (see scriptLenient)
}

// join returns what is known after either a or b happened.
func (a scope) join(b scope) scope {
	if a.cwdOK != b.cwdOK || a.cwd != b.cwd {
		a.cwdOK = false
	}
	if a.homeOK != b.homeOK || a.home != b.home {
		a.homeOK = false
	}
	if a.tmpOK != b.tmpOK || a.tmp != b.tmp {
		a.tmpOK = false
	}
	a.cdpath = a.cdpath || b.cdpath
	return a
}

// abs resolves p against the current directory.
func (sc *scope) abs(p string) (string, bool) {
	if path.IsAbs(p) {
		return path.Clean(p), true
	}
	if !sc.cwdOK {
		return "", false
	}
	return path.Join(sc.cwd, p), true
}

// errDynamic stops expand from running anything: the validator never
// executes code to learn what a word means (pitfall 2: a nil ProcSubst
// panics in expand, so both hooks are always set).
var errDynamic = errors.New("validator: word is computed at run time")

// config returns the locked-down expansion config for sc: only HOME and
// PWD are set, substitutions fail, globbing is off (ReadDir2 is nil) and
// unset variables are errors.
func (sc *scope) config() *expand.Config {
	var env []string
	if sc.homeOK {
		env = append(env, "HOME="+sc.home)
	}
	if sc.cwdOK {
		env = append(env, "PWD="+sc.cwd)
	}
	if sc.tmpOK {
		env = append(env, "TMPDIR="+sc.tmp)
	}
	return &expand.Config{
		Env:       expand.ListEnviron(env...),
		NoUnset:   true,
		CmdSubst:  func(io.Writer, *syntax.CmdSubst) error { return errDynamic },
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", errDynamic },
	}
}

// arg is one decoded argument of a simple command.
type arg struct {
	val    string       // the decoded text, when !dyn
	dyn    bool         // computed at run time
	glob   bool         // contains an unquoted glob pattern (not expanded)
	prefix string       // for a dynamic word: its decoded leading literal text
	word   *syntax.Word // where it came from, for positions; nil for synthetic args
}

// text returns what is known of the argument's leading text.
func (a arg) text() string {
	if a.dyn {
		return a.prefix
	}
	return a.val
}

// isFlag reports whether the argument looks like an option.
func (a arg) isFlag() bool {
	if a.dyn {
		return strings.HasPrefix(a.prefix, "-")
	}
	return len(a.val) > 1 && a.val[0] == '-'
}

// pos returns where the argument was written, or def.
func (a arg) pos(def syntax.Pos) syntax.Pos {
	if a.word != nil && a.word.Pos().IsValid() {
		return a.word.Pos()
	}
	return def
}

// Limits on brace expansion, so that {1..1000000000} or a megabyte of
// {a,b}{c,d} cannot make the validator slow (class 15 against the
// validator itself). Words over the limit are treated as dynamic.
const (
	maxFieldsPerWord = 64
	maxFieldsTotal   = 8192
)

// decode expands w into arguments the way Bash would without running
// anything: quote removal, $'…', brace expansion, ~ and $HOME. A word
// that needs anything else is one dynamic argument.
//
// expand.Fields is used rather than expand.Literal because Literal keeps
// the backslashes of unquoted words (c\at stays c\at), while Bash, and
// Fields, remove them (class 3).
func (c *checker) decode(w *syntax.Word, sc *scope) []arg {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			// Fast path for the common plain word: nothing to expand.
			if !strings.ContainsAny(l.Value, "\\~{*?[") {
				return []arg{{val: l.Value, word: w}}
			}
			if v, ok, dyn := assignTilde(l.Value, sc); ok {
				if dyn {
					return []arg{{dyn: true, prefix: "", word: w}}
				}
				return []arg{{val: v, glob: hasGlob(v), word: w}}
			}
		}
	}
	static, glob := classify(w, sc)
	if !static {
		return []arg{{dyn: true, prefix: decodePrefix(w, sc), word: w}}
	}
	var out []arg
	for s, err := range expand.FieldsSeq(sc.config(), w) {
		// Only the fields beyond a word's first count against the
		// total: they come from brace expansion.
		if err != nil || len(out) >= maxFieldsPerWord || (len(out) > 0 && c.fields >= maxFieldsTotal) {
			return []arg{{dyn: true, prefix: "", word: w}}
		}
		if len(out) > 0 {
			c.fields++
		}
		out = append(out, arg{val: s, glob: glob, word: w})
	}
	return out
}

// assignTilde expands the tildes of an argument that looks like an
// assignment (a=~/x, PATH=~/bin:~/x): Bash expands them after "=" and ":"
// even in arguments, and expand.Fields does not. It applies only to a
// plain unquoted word; ok is false when the rule does not apply, dyn is
// true for ~user, ~+ and ~-.
func assignTilde(s string, sc *scope) (val string, ok, dyn bool) {
	name, value, found := strings.Cut(s, "=")
	if !found || !syntax.ValidName(name) || !strings.Contains(value, "~") ||
		strings.ContainsAny(s, "\\{$`\"'") {
		return "", false, false
	}
	segs := strings.Split(value, ":")
	for i, seg := range segs {
		if !strings.HasPrefix(seg, "~") {
			continue
		}
		user, rest, _ := strings.Cut(seg[1:], "/")
		if user != "" || !sc.homeOK {
			return "", true, true
		}
		if strings.Contains(seg, "/") {
			rest = "/" + rest
		}
		segs[i] = sc.home + rest
	}
	return name + "=" + strings.Join(segs, ":"), true, false
}

// decodeOne decodes w as a single string (a heredoc-like or -c operand);
// ok is false when it is dynamic or expands to several fields.
func (c *checker) decodeOne(w *syntax.Word, sc *scope) (string, bool) {
	args := c.decode(w, sc)
	if len(args) != 1 || args[0].dyn {
		return "", false
	}
	return args[0].val, true
}

// classify reports whether w can be decoded statically, and whether it
// holds an unquoted glob pattern.
func classify(w *syntax.Word, sc *scope) (static, glob bool) {
	for i, p := range w.Parts {
		ok, g := partStatic(p, i == 0, len(w.Parts) > 1, sc)
		if !ok {
			return false, false
		}
		glob = glob || g
	}
	return true, glob
}

func partStatic(p syntax.WordPart, first, more bool, sc *scope) (ok, glob bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		if first && strings.HasPrefix(p.Value, "~") {
			// Only ~ and ~/… are known. ~user would make expand ask the
			// host's user database; ~+ and ~- depend on the shell's state.
			name, _, slash := strings.Cut(p.Value[1:], "/")
			if slash || !more {
				if name != "" || !sc.homeOK {
					return false, false
				}
			}
		}
		return true, hasGlob(p.Value)
	case *syntax.SglQuoted:
		return true, false
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			switch q := q.(type) {
			case *syntax.Lit:
			case *syntax.ParamExp:
				if !knownParam(q, sc) {
					return false, false
				}
			default:
				return false, false
			}
		}
		return true, false
	case *syntax.ParamExp:
		return knownParam(p, sc), false
	}
	// ExtGlob, substitutions, arithmetic and other expansions.
	return false, false
}

// knownParam reports whether pe is a plain $HOME or $PWD whose value is
// known in sc.
func knownParam(pe *syntax.ParamExp, sc *scope) bool {
	if pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.IsSet ||
		pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil ||
		pe.Names != 0 || pe.NestedParam != nil || pe.Flags != nil || len(pe.Modifiers) > 0 {
		return false
	}
	switch pe.Param.Value {
	case "HOME":
		return sc.homeOK
	case "PWD":
		return sc.cwdOK
	case "TMPDIR":
		return sc.tmpOK
	}
	return false
}

// decodePrefix decodes the leading static parts of a dynamic word,
// including the leading static parts of a double-quoted string: the text
// every expansion of the word starts with ("" when unknown).
func decodePrefix(w *syntax.Word, sc *scope) string {
	more := len(w.Parts) > 1
	var parts []syntax.WordPart
	for i, p := range w.Parts {
		if ok, _ := partStatic(p, i == 0, more, sc); ok {
			parts = append(parts, p)
			continue
		}
		if dq, ok := p.(*syntax.DblQuoted); ok {
			var inner []syntax.WordPart
			for _, q := range dq.Parts {
				if ok, _ := partStatic(q, false, true, sc); !ok || isSubst(q) {
					break
				}
				inner = append(inner, q)
			}
			if len(inner) > 0 {
				parts = append(parts, &syntax.DblQuoted{Parts: inner})
			}
		}
		break
	}
	if len(parts) == 0 {
		return ""
	}
	var out []string
	for s, err := range expand.FieldsSeq(sc.config(), &syntax.Word{Parts: parts}) {
		if err != nil || len(out) > 0 {
			return ""
		}
		out = append(out, s)
	}
	if len(out) != 1 {
		return ""
	}
	return out[0]
}

// isSubst reports whether p is an expansion (not literal text); inside
// double quotes only literal text and known parameters are static.
func isSubst(p syntax.WordPart) bool {
	switch p.(type) {
	case *syntax.Lit, *syntax.ParamExp:
		return false
	}
	return true
}

// hasGlob reports whether unquoted literal text holds a glob
// metacharacter that is not escaped. A lone "[" (the test command) is not
// a pattern: Bash needs a closing "]".
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(s[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// hasMeta reports whether decoded text contains glob metacharacters
// (quoted or not: path checks treat them as patterns, conservatively).
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// expandDocument expands an unquoted heredoc body with the locked-down
// config.
func expandDocument(w *syntax.Word, sc *scope) (string, error) {
	return expand.Document(sc.config(), w)
}
