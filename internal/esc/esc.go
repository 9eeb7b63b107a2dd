// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package esc renders text that came from inside a sandbox (a file name
// the agent chose, a command line, a reason from a project's policy
// file) for a terminal: every character a terminal would act on instead
// of showing is shown as a visible escape, so that such text can neither
// send an escape sequence (set the window title, move the cursor,
// overwrite lite-sandbox's own line) nor start a line of its own
// (escape class 58, docs/security-model.md; docs/commands.md "Text from
// inside").
//
// Escaped, each as its own visible form:
//
//   - the C0 controls, tab and newline included (\t, \n, \r; the rest
//     \x1b-style): every print site is one line or one table cell, so a
//     tab would shift the columns and a newline would start a forged line;
//     a command of several lines shows as one, with \n between them;
//   - DEL (\x7f);
//   - the C1 controls U+0080 to U+009F (\u009b-style): some terminals
//     take U+009B as CSI;
//   - the bidirectional formatting characters (U+061C, U+200E, U+200F,
//     U+202A to U+202E, U+2066 to U+2069), which reorder what is shown,
//     and the line and paragraph separators U+2028, U+2029;
//   - each byte that is not valid UTF-8 (\xff-style).
//
// A backslash is left as it is, so that an ordinary command prints
// unchanged; the literal text `\x1b` therefore looks like an escaped
// ESC, and is as harmless.
package esc

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text returns s with every character a terminal would act on shown as
// a visible escape (see the package comment); s itself when there is
// none.
func Text(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if needs(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case needs(r, n):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// needs reports whether the rune r, n bytes long in its text, is shown
// escaped.
func needs(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// Printable shows a path in a reason line: as it is, or quoted when it
// holds a character a terminal would act on (a control, C1, bidi
// formatting, invalid UTF-8; a newline must not start a second line the
// model would read as ours).
func Printable(p string) string {
	if Text(p) != p {
		return strconv.Quote(p)
	}
	return p
}

// Texts is [Text] of each of ss, in a new slice.
func Texts(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Text(s)
	}
	return out
}

// Error is err's text through [Text]. An error of several (errors.Join)
// is one escaped line each, joined by newlines: the lines are ours, the
// text in them may not be.
func Error(err error) string {
	if err == nil {
		return ""
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			if e != nil {
				lines = append(lines, Error(e))
			}
		}
		return strings.Join(lines, "\n")
	}
	return Text(err.Error())
}

// Fprintf is fmt.Fprintf with every argument that is text (a string, an
// error, a fmt.Stringer, a []string) passed through [Text] first: the
// format is ours, the arguments may have come from inside. Numbers and
// other values are formatted as they are.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	return fmt.Fprintf(w, format, Args(a...)...)
}

// Sprintf is [Fprintf] into a string.
func Sprintf(format string, a ...any) string {
	return fmt.Sprintf(format, Args(a...)...)
}

// Args returns a with its text arguments escaped, as [Fprintf] does.
func Args(a ...any) []any {
	out := make([]any, len(a))
	for i, v := range a {
		switch x := v.(type) {
		case string:
			out[i] = Text(x)
		case error:
			out[i] = Error(x)
		case fmt.Stringer:
			out[i] = Text(x.String())
		case []string:
			out[i] = Texts(x)
		default:
			out[i] = v
		}
	}
	return out
}
