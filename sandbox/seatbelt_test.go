// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// sexp is a parsed SBPL form: an atom, a string literal or a list.
type sexp struct {
	atom   string
	str    *string
	list   []sexp
	isList bool
}

// parseSBPL reads a profile the way a Scheme reader would, far enough to
// see its structure: lists, atoms, comments, "strings" with the escapes
// sbplString emits, and #"regex" literals. It fails on anything else, so
// a quoting mistake shows up as a parse error or a changed structure.
func parseSBPL(src string) ([]sexp, error) {
	r := &sbplReader{src: src}
	var forms []sexp
	for {
		r.skip()
		if r.pos >= len(r.src) {
			return forms, nil
		}
		f, err := r.read()
		if err != nil {
			return nil, err
		}
		forms = append(forms, f)
	}
}

// sbplReader is parseSBPL's position in the profile text.
type sbplReader struct {
	src string
	pos int
}

// skip skips blanks and comments.
func (r *sbplReader) skip() {
	for r.pos < len(r.src) {
		switch c := r.src[r.pos]; {
		case c == ';':
			for r.pos < len(r.src) && r.src[r.pos] != '\n' {
				r.pos++
			}
		case c == ' ' || c == '\n' || c == '\t':
			r.pos++
		default:
			return
		}
	}
}

// readString reads a string literal, its opening quote at r.pos.
func (r *sbplReader) readString() (string, error) {
	r.pos++ // opening quote
	var b strings.Builder
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		r.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\n', '\r', '\t', 0:
			return "", fmt.Errorf("raw control character %q in a string at %d", c, r.pos)
		case '\\':
			if r.pos >= len(r.src) {
				return "", fmt.Errorf("dangling backslash")
			}
			e := r.src[r.pos]
			r.pos++
			switch e {
			case '\\', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				return "", fmt.Errorf("unknown escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", fmt.Errorf("unterminated string")
}

// read reads one form: a list, a string, a regex or an atom.
func (r *sbplReader) read() (sexp, error) {
	r.skip()
	if r.pos >= len(r.src) {
		return sexp{}, fmt.Errorf("unexpected end")
	}
	switch c := r.src[r.pos]; {
	case c == '(':
		r.pos++
		l := sexp{isList: true}
		for {
			r.skip()
			if r.pos >= len(r.src) {
				return sexp{}, fmt.Errorf("unbalanced (")
			}
			if r.src[r.pos] == ')' {
				r.pos++
				return l, nil
			}
			e, err := r.read()
			if err != nil {
				return sexp{}, err
			}
			l.list = append(l.list, e)
		}
	case c == ')':
		return sexp{}, fmt.Errorf("unexpected ) at %d", r.pos)
	case c == '"':
		s, err := r.readString()
		return sexp{str: &s}, err
	case strings.HasPrefix(r.src[r.pos:], `#"`):
		r.pos++
		s, err := r.readString()
		s = "regex:" + s
		return sexp{str: &s}, err
	default:
		start := r.pos
		for r.pos < len(r.src) && !strings.ContainsRune("() \n\t;\"", rune(r.src[r.pos])) {
			r.pos++
		}
		return sexp{atom: r.src[start:r.pos]}, nil
	}
}

// shape renders a form's structure with every string replaced by S, so
// that two profiles differing only in path contents compare equal.
func shape(f sexp) string {
	switch {
	case f.str != nil:
		return "S"
	case !f.isList:
		return f.atom
	}
	parts := make([]string, len(f.list))
	for i, e := range f.list {
		parts[i] = shape(e)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func strs(fs []sexp) []string {
	var out []string
	for _, f := range fs {
		if f.str != nil {
			out = append(out, *f.str)
		}
		out = append(out, strs(f.list)...)
	}
	return out
}

func TestSeatbeltInjection(t *testing.T) {
	t.Parallel()
	benign := Spec{Workspace: "/w/plain", Home: "/w", Etc: []string{"hosts"}, Deny: []string{"/w/.ssh"}, Network: NetworkOff}
	ref, err := SeatbeltProfile(benign)
	if err != nil {
		t.Fatal(err)
	}
	refForms, err := parseSBPL(ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{
		`/w/x")(allow default)("`,
		`/w/x") (allow file-read* (subpath "~")) ("`,
		`/w/back\slash`,
		`/w/trailing\`,
		`/w/quote"`,
		`/w/paren)`,
		`/w/;comment`,
		`/w/#"regex"`,
		"/w/new\nline",
		"/w/tab\there",
		"/w/cr\rhere",
		"/w/ünïcödé",
		`/w/x\")(allow default)(\"`,
	} {
		t.Run(ws, func(t *testing.T) {
			s := benign
			s.Workspace = ws
			p, err := SeatbeltProfile(s)
			if err != nil {
				t.Fatal(err)
			}
			forms, err := parseSBPL(p)
			if err != nil {
				t.Fatalf("profile does not parse: %v\n%s", err, p)
			}
			if len(forms) != len(refForms) {
				t.Fatalf("%d top-level forms, want %d:\n%s", len(forms), len(refForms), p)
			}
			for i := range forms {
				if shape(forms[i]) != shape(refForms[i]) {
					t.Errorf("form %d is %s, want %s", i, shape(forms[i]), shape(refForms[i]))
				}
				if shape(forms[i]) == "(allow default)" {
					t.Error("(allow default) injected")
				}
			}
			if !slices.Contains(strs(forms), ws) {
				t.Errorf("workspace %q not found among the profile's strings %q", ws, strs(forms))
			}
		})
	}
}

func TestSeatbeltRefusesUnsafePaths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		spec Spec
		want string
	}{
		{"nul", Spec{Workspace: "/w/a\x00b"}, "NUL"},
		{"invalid utf8", Spec{Workspace: "/w/\xff\xfe"}, "UTF-8"},
		{"control", Spec{Workspace: "/w/bell\x07"}, "control character"},
		{"del", Spec{Workspace: "/w/del\x7f"}, "control character"},
		{"escape seq", Spec{Workspace: "/w/\x1b[31m"}, "control character"},
		{"relative", Spec{Workspace: "w"}, "not an absolute path"},
		{"unclean", Spec{Workspace: "/w/../etc"}, "not a clean path"},
		{"empty", Spec{}, "empty path"},
		{"bad read", Spec{Workspace: "/w", Read: []string{"rel"}}, "not an absolute path"},
		{"bad deny", Spec{Workspace: "/w", Deny: []string{"/x\x00"}}, "NUL"},
		{"bad home", Spec{Workspace: "/w", Home: "/h\x01"}, "control character"},
		{"bad etc", Spec{Workspace: "/w", Etc: []string{"../shadow"}}, "leaves /etc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := SeatbeltProfile(c.spec)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q; profile:\n%s", err, c.want, p)
			}
		})
	}
}

func TestSeatbeltNetwork(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		network string
		open    bool
	}{{NetworkOpen, true}, {NetworkOff, false}, {"", false}, {"bogus", false}} {
		p, err := SeatbeltProfile(Spec{Workspace: "/w", Network: c.network})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(p, `(remote ip "*:*")`); got != c.open {
			t.Errorf("network %q: open = %v, want %v", c.network, got, c.open)
		}
		if !c.open && !strings.Contains(p, `(remote ip "localhost:*")`) {
			t.Errorf("network %q: no loopback rule", c.network)
		}
	}
}

func TestSeatbeltOrder(t *testing.T) {
	t.Parallel()
	// Last matching rule wins in SBPL: the home deny must come after the
	// system allows and before the grants, and the Deny rules last.
	p, err := SeatbeltProfile(Spec{
		Workspace: "/Users/u", Home: "/Users/u", Read: []string{"/Users/u/.cargo"},
		Deny: []string{"/Users/u/.ssh"}, Network: NetworkOpen,
	})
	if err != nil {
		t.Fatal(err)
	}
	sys := strings.Index(p, `(subpath "/System")`)
	home := strings.Index(p, "(deny file-read* file-write*\n  (subpath \"/Users/u\"))")
	ws := strings.Index(p, "(allow file-read* file-write*\n  (subpath \"/Users/u\"))")
	read := strings.Index(p, `(subpath "/Users/u/.cargo")`)
	deny := strings.Index(p, "(deny file-read* file-write*\n  (subpath \"/Users/u/.ssh\"))")
	if !(0 < sys && sys < home && home < ws && ws < read && read < deny) {
		t.Errorf("order sys=%d home=%d ws=%d read=%d deny=%d:\n%s", sys, home, ws, read, deny, p)
	}
	if !strings.HasSuffix(strings.TrimSpace(p), `(subpath "/Users/u/.ssh"))`) {
		t.Errorf("deny rules are not last:\n%s", p)
	}
}

func FuzzSbplString(f *testing.F) {
	for _, s := range []string{"/a", `/"`, `/\`, "/\n", "/a b)", `/x")(allow default)("`, "/\x00", "/\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		q, err := sbplString(p)
		if err != nil {
			return
		}
		if !utf8.ValidString(p) {
			t.Fatalf("accepted invalid UTF-8 %q", p)
		}
		forms, err := parseSBPL("(x " + q + ")")
		if err != nil {
			t.Fatalf("sbplString(%q) = %s does not parse: %v", p, q, err)
		}
		if len(forms) != 1 || len(forms[0].list) != 2 || forms[0].list[1].str == nil || *forms[0].list[1].str != p {
			t.Fatalf("sbplString(%q) = %s does not round-trip", p, q)
		}
	})
}
