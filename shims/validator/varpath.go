// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Paths held in variables whose value the validator cannot know
// ("$X/build", "$(mktemp -d)/cache"). A rule with paths (fs.rm.root)
// asks whether the argument can name one of its paths or a directory
// above one. The known leading text narrows that down (build/"$x" stays
// under build), and so does the literal text the word ends with:
// "$X/build" names an entry called build, whatever $X holds (".." in
// $X included), so it can be the root never, and the home, the
// workspace or a directory above them only when one of those has a
// component called build. That holds only when the word is one field:
// an unquoted $X can split into several paths ($X="/ x" makes "/" one of
// them), and so can "$@" or "${a[@]}" inside quotes; the literal end
// must hold no ".." (it would climb out of the name). Symlinks are not
// followed, as for literal paths. Where a refusal remains, the reason
// says which value is unknown and how to spell the path out.

// varTail is what is known of a dynamic word's end.
type varTail struct {
	text     string   // the literal text after the last expansion
	oneField bool     // every expansion stays one field
	vars     []string // the expansions, as written ("$X", "$(…)")
	unquoted bool     // an expansion is unquoted (field splitting, globbing)
}

// dynamicTail reads the end of a dynamic word.
func dynamicTail(w *syntax.Word) varTail {
	t := varTail{oneField: true}
	if w == nil {
		return varTail{}
	}
	dyn := func(p syntax.WordPart, quoted bool) {
		t.text = ""
		t.vars = append(t.vars, expansionName(p))
		if !quoted {
			t.oneField, t.unquoted = false, true
		} else if pe, ok := p.(*syntax.ParamExp); ok && splitsInQuotes(pe) {
			t.oneField = false
		}
	}
	// Text that Bash would still change (escapes, brace expansion, $'…')
	// is not read as a name: the word then tells nothing (fail closed:
	// "$X"/w\s and "$X"/{ws,x} are the workspace's name).
	raw := func(v, special string) {
		if strings.ContainsAny(v, special) {
			t.oneField = false
		}
		t.text += v
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			raw(p.Value, "\\{")
		case *syntax.SglQuoted:
			if p.Dollar {
				raw(p.Value, "\\")
			} else {
				t.text += p.Value
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				t.oneField = false // $"…": locale translation
			}
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					raw(l.Value, "\\")
				} else {
					dyn(q, true)
				}
			}
		default:
			dyn(p, false)
		}
	}
	return t
}

// splitsInQuotes reports "$@", "${a[@]}" and "${!p@}": several fields
// even inside double quotes.
func splitsInQuotes(pe *syntax.ParamExp) bool {
	if pe.Param != nil && pe.Param.Value == "@" {
		return true
	}
	if pe.Index != nil {
		if w, ok := pe.Index.(*syntax.Word); ok && w.Lit() == "@" {
			return true
		}
	}
	return pe.Names == syntax.NamesPrefixWords
}

// expansionName returns how an expansion is written, for messages.
func expansionName(p syntax.WordPart) string {
	switch p := p.(type) {
	case *syntax.ParamExp:
		if p.Param != nil {
			return "$" + p.Param.Value
		}
	case *syntax.CmdSubst:
		return "the output of $(…)"
	}
	return "an expansion"
}

// tailCanName reports whether a one-field word ending in tail can name
// one of targets (component lists) or a directory above one. ok is
// false when the tail tells nothing (no literal name at the end).
func tailCanName(tail string, targets [][]string) (can, ok bool) {
	tail = strings.TrimRight(tail, "/")
	comps := strings.Split(tail, "/")
	partial := comps[0] // joined to the expansion before it
	rest := slices.DeleteFunc(comps[1:], func(c string) bool { return c == "" || c == "." })
	if slices.Contains(rest, "..") || partial == ".." && len(rest) == 0 {
		return false, false
	}
	// Removing every entry of a directory is removing the directory.
	if n := len(rest); n > 0 && (rest[n-1] == "*" || rest[n-1] == ".*" || rest[n-1] == "*.*") {
		rest = rest[:n-1]
	}
	if len(rest) == 0 && (partial == "" || partial == "." || hasMeta(partial)) {
		return false, false
	}
	for _, t := range targets {
		// The word is t[:i+1] when its last len(rest) components are
		// t[i-len(rest)+1..i] and, with a partial component, the one
		// before ends in it.
		for i := range t {
			if endsAt(t, i, partial, rest) {
				return true, true
			}
		}
	}
	return false, true
}

func endsAt(t []string, i int, partial string, rest []string) bool {
	j := i - len(rest) + 1
	if j < 0 {
		return false
	}
	for k, c := range rest {
		if !compMatch(c, t[j+k]) {
			return false
		}
	}
	if partial == "" {
		return true
	}
	if len(rest) == 0 {
		return strings.HasSuffix(t[i], partial) || hasMeta(partial)
	}
	return j >= 1 && (strings.HasSuffix(t[j-1], partial) || hasMeta(partial))
}

// dynPathNote is the reason a rule with paths gives when a dynamic
// argument made it match, and the hint.
func dynPathNote(a arg, reason string) (string, string) {
	t := dynamicTail(a.word)
	what := "the path"
	if len(t.vars) > 0 {
		what = strings.Join(slices.Compact(t.vars), " and ")
	}
	var why string
	switch {
	case t.unquoted:
		why = "The value of " + what + " is not known before the command runs, and unquoted it may split into several paths, so one of them could be one this rule protects."
	case strings.TrimRight(t.text, "/") == "" || !t.oneField:
		why = "The value of " + what + " is not known before the command runs, so the path could be one this rule protects."
	default:
		why = "The value of " + what + " is not known before the command runs, and a path ending in " + path.Base(strings.TrimRight(t.text, "/")) + " could still be one this rule protects (the home directory, the workspace or a directory above them has a component of that name)."
	}
	hint := "Spell the path out (for example rm -rf /tmp/cache, or a path relative to the workspace such as rm -rf build/out), or quote the variable and end the path with the literal name of what you remove (\"$DIR/build\")."
	return why + " The rule: " + reason, hint
}

// tailClears reports whether a dynamic argument cannot name any of the
// rule's paths, judging by its literal end.
func (r *rule) tailClears(a arg) bool {
	t := dynamicTail(a.word)
	if !t.oneField {
		return false
	}
	can, ok := tailCanName(t.text, r.paths)
	return ok && !can
}
