// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import "strings"

// sedRun is one command a sed program runs: its text when it is
// literal (e COMMAND), or unknown (e alone, s///e: the pattern space).
type sedRun struct {
	cmd   string
	known bool
}

// sedRuns reads a GNU sed program far enough to find what it runs. ok
// is false when it cannot read the program (sed would most likely
// refuse it too; the caller refuses it, failing closed).
func sedRuns(p string) (runs []sedRun, ok bool) {
	s := sedScanner{p: p}
	for {
		s.skip(" \t\n;")
		if s.end() {
			return runs, true
		}
		if s.peek() == '#' {
			s.toEOL()
			continue
		}
		if !s.address() {
			return nil, false
		}
		s.skip(" \t")
		for !s.end() && s.peek() == '!' {
			s.i++
			s.skip(" \t")
		}
		if s.end() {
			return nil, false
		}
		cmd := s.p[s.i]
		s.i++
		r, ok := s.command(cmd)
		if !ok {
			return nil, false
		}
		runs = append(runs, r...)
		s.skip(" \t")
		if cmd != '{' && !s.end() && !strings.ContainsRune(";\n}#", rune(s.peek())) {
			return nil, false
		}
	}
}

// sedScanner walks a sed program.
type sedScanner struct {
	p string
	i int
}

func (s *sedScanner) end() bool  { return s.i >= len(s.p) }
func (s *sedScanner) peek() byte { return s.p[s.i] }

func (s *sedScanner) skip(set string) {
	for !s.end() && strings.IndexByte(set, s.peek()) >= 0 {
		s.i++
	}
}

// toEOL returns the text up to the end of the line and moves past it.
func (s *sedScanner) toEOL() string {
	j := strings.IndexByte(s.p[s.i:], '\n')
	if j < 0 {
		t := s.p[s.i:]
		s.i = len(s.p)
		return t
	}
	t := s.p[s.i : s.i+j]
	s.i += j + 1
	return t
}

// label reads a label or file name up to ";" or the end of the line.
func (s *sedScanner) label() {
	for !s.end() && s.peek() != ';' && s.peek() != '\n' {
		s.i++
	}
}

// digits skips a run of digits and reports whether there was one.
func (s *sedScanner) digits() bool {
	j := s.i
	for !s.end() && s.peek() >= '0' && s.peek() <= '9' {
		s.i++
	}
	return s.i > j
}

// delimited moves past a part that ends with an unescaped delim.
func (s *sedScanner) delimited(delim byte) bool {
	for !s.end() {
		ch := s.peek()
		s.i++
		switch {
		case ch == '\\':
			s.i++
		case ch == delim:
			return true
		}
	}
	return false
}

// parts moves past n parts that each end with delim (y/A/B/, s/RE/R/).
func (s *sedScanner) parts(delim byte, n int) bool {
	for range n {
		if !s.delimited(delim) {
			return false
		}
	}
	return true
}

// address skips an optional address or address range.
func (s *sedScanner) address() bool {
	if !s.one() {
		return false
	}
	s.skip(" \t")
	if !s.end() && s.peek() == ',' {
		s.i++
		s.skip(" \t")
		if !s.end() && (s.peek() == '+' || s.peek() == '~') {
			s.i++
			return s.digits()
		}
		return s.one()
	}
	return true
}

// one skips one address: a line number (N, first~step), $, /re/ or
// \cREc with the I and M flags.
func (s *sedScanner) one() bool {
	if s.end() {
		return true
	}
	switch ch := s.peek(); {
	case ch >= '0' && ch <= '9':
		s.digits()
		if !s.end() && s.peek() == '~' {
			s.i++
			return s.digits()
		}
	case ch == '$':
		s.i++
	case ch == '/' || ch == '\\':
		delim := byte('/')
		if ch == '\\' {
			if s.i+1 >= len(s.p) {
				return false
			}
			delim = s.p[s.i+1]
			s.i++
		}
		s.i++
		if !s.delimited(delim) {
			return false
		}
		s.skip("IM")
	}
	return true
}

// command reads the rest of one command whose letter was cmd.
func (s *sedScanner) command(cmd byte) ([]sedRun, bool) {
	switch cmd {
	case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case 'l', 'L', 'q', 'Q':
		s.skip(" \t")
		s.digits()
	case 'a', 'i', 'c':
		s.text()
	case ':', 'b', 't', 'T', 'v':
		s.skip(" \t")
		s.label()
	case 'r', 'R', 'w', 'W':
		s.toEOL()
	case 'e':
		t := strings.TrimSpace(s.text())
		return []sedRun{{cmd: t, known: t != ""}}, true
	case 's':
		return s.subst()
	case 'y':
		if s.end() {
			return nil, false
		}
		delim := s.peek()
		s.i++
		return nil, s.parts(delim, 2)
	default:
		return nil, false
	}
	return nil, true
}

// text reads the text of a, i, c and e: to the end of the line, a
// backslash before the newline going on to the next one.
func (s *sedScanner) text() string {
	var b strings.Builder
	for !s.end() {
		ch := s.peek()
		s.i++
		if ch == '\\' && !s.end() && s.peek() == '\n' {
			b.WriteByte('\n')
			s.i++
			continue
		}
		if ch == '\n' {
			break
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// subst reads s/RE/REPLACEMENT/FLAGS; the e flag runs the pattern space.
func (s *sedScanner) subst() ([]sedRun, bool) {
	if s.end() || s.peek() == '\n' || s.peek() == '\\' {
		return nil, false
	}
	delim := s.peek()
	s.i++
	if !s.parts(delim, 2) {
		return nil, false
	}
	var runs []sedRun
	for !s.end() {
		switch ch := s.peek(); {
		case ch == 'e':
			runs = append(runs, sedRun{})
		case ch == 'w':
			s.toEOL()
			return runs, true
		case strings.IndexByte("gpiImM0123456789", ch) < 0:
			return runs, true
		}
		s.i++
	}
	return runs, true
}
