// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Class 14: bytes that make a command look different from what runs. A
// carriage return hides the rest of a line in a terminal, a zero-width or
// non-breaking space splits or joins words invisibly, bidi controls
// reorder what a reviewer sees. Outside quotes they change what Bash
// executes; inside quotes (and in comments and heredoc bodies) they are
// data and are fine.
//
// The check runs on the raw source rather than on Lit nodes because the
// parser normalises some of them away (it drops a bare \r and NUL bytes
// from literal text, while Bash keeps the \r in the word).

// deceptiveRune reports whether r must not appear outside quotes.
func deceptiveRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0): // C0 and C1 controls
		return true
	case r == utf8.RuneError: // invalid UTF-8 renders as a replacement character
		return true
	case unicode.Is(unicode.Cf, r): // zero-width, bidi, BOM, soft hyphen
		return true
	case unicode.Is(unicode.Zs, r) && r != ' ': // NBSP and other spaces
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 || r == 0x2800: // blank-looking fillers
		return true
	}
	return false
}

// firstDeceptive returns the byte offset and rune of the first deceptive
// character of s.
func firstDeceptive(s string) (int, rune, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if deceptiveRune(r) {
			return i, r, true
		}
		i += n
	}
	return 0, 0, false
}

// span is a byte range [from, to) of the source.
type span struct{ from, to uint }

// dataSpans returns the ranges of f that are data rather than code:
// single-quoted strings, literal text inside double quotes and heredoc
// bodies, and comments.
func dataSpans(f *syntax.File) []span {
	var spans []span
	add := func(n syntax.Node) {
		if n.Pos().IsValid() && n.End().IsValid() {
			spans = append(spans, span{n.Pos().Offset(), n.End().Offset()})
		}
	}
	lits := func(parts []syntax.WordPart) {
		for _, p := range parts {
			if l, ok := p.(*syntax.Lit); ok {
				add(l)
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			add(n)
		case *syntax.Comment:
			add(n)
		case *syntax.DblQuoted:
			lits(n.Parts)
		case *syntax.Redirect:
			if n.Hdoc != nil {
				lits(n.Hdoc.Parts)
			}
		}
		return true
	})
	return spans
}

// deceptiveCode returns the offset and rune of the first deceptive
// character of src that lies outside every data span of f.
func deceptiveCode(src string, f *syntax.File) (uint, rune, bool) {
	if _, _, ok := firstDeceptive(src); !ok {
		return 0, 0, false // the common case: no walk needed
	}
	spans := dataSpans(f)
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		if deceptiveRune(r) && !inSpans(uint(i), spans) {
			return uint(i), r, true
		}
		i += n
	}
	return 0, 0, false
}

func inSpans(off uint, spans []span) bool {
	for _, s := range spans {
		if off >= s.from && off < s.to {
			return true
		}
	}
	return false
}

// describeRune names a character for a reason text.
func describeRune(r rune) string {
	switch r {
	case 0:
		return "a NUL byte"
	case '\r':
		return "a carriage return (\\r)"
	case 0x1b:
		return "an escape character (ESC)"
	case utf8.RuneError:
		return "an invalid UTF-8 byte"
	}
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return fmt.Sprintf("a control character (U+%04X)", r)
	}
	return fmt.Sprintf("an invisible or look-alike character (U+%04X)", r)
}

// offsetPos converts a byte offset of src into a 1-based line and column
// (in bytes, like the parser's positions).
func offsetPos(src string, off uint) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(src) && uint(i) < off; i++ {
		if src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
