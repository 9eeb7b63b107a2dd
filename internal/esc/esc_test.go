// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package esc

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		// Positive controls: ordinary text prints unchanged.
		{"", ""},
		{"~/notes.txt", "~/notes.txt"},
		{`git commit -m 'fix: a\b "c"'`, `git commit -m 'fix: a\b "c"'`},
		{"café/日本語/😀", "café/日本語/😀"},
		{"\u00a0non-breaking", "\u00a0non-breaking"},
		// The finding of #25: a title and a forged line of our own.
		{"x\x1b]0;pwned\x07\n[lite-sandbox] forged", `x\x1b]0;pwned\x07\n[lite-sandbox] forged`},
		{"a\tb\rc\x00d\x7fe", `a\tb\rc\x00d\x7fe`},
		{"\x1b[2K\x1b[1A", `\x1b[2K\x1b[1A`},
		// C1 as characters, and as bytes (invalid UTF-8).
		{"a\u009b31mb", `a\u009b31mb`},
		{"a\x9bb\xffc", `a\x9bb\xffc`},
		{"\xe2\x80", `\xe2\x80`},
		// Bidirectional formatting and line separators.
		{"evil\u202etxt.exe", `evil\u202etxt.exe`},
		{"\u2066a\u2069\u200e\u200f\u061c", `\u2066a\u2069\u200e\u200f\u061c`},
		{"a\u2028b\u2029", `a\u2028b\u2029`},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFprintf(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	Fprintf(&b, "lite-sandbox: %s (%d files): %v; %v; %v\n", "a\x1bb", 3, errors.New("open c\nd: denied"), []string{"e\x07"}, 1.5)
	if want := "lite-sandbox: a\\x1bb (3 files): open c\\nd: denied; [e\\x07]; 1.5\n"; b.String() != want {
		t.Errorf("Fprintf = %q, want %q", b.String(), want)
	}
	joined := errors.Join(errors.New("rule a: bad glob \"x\x1b\""), errors.New("rule b:\nforged"))
	if got, want := Error(joined), "rule a: bad glob \"x\\x1b\"\nrule b:\\nforged"; got != want {
		t.Errorf("Error(joined) = %q, want %q", got, want)
	}
	if got := Sprintf("%s", "ok"); got != "ok" {
		t.Errorf("Sprintf control = %q", got)
	}
}

// FuzzText: whatever the input, the output holds no control byte, no ESC,
// no C1, no bidi formatting, and is valid UTF-8; text that needs nothing
// is returned unchanged.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "plain", "x\x1b]0;pwned\x07\n[lite-sandbox] forged", "\u202e\u009b\xff", "a\tb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q: not valid UTF-8", s, out)
		}
		for i := 0; i < len(out); i++ {
			if c := out[i]; c < 0x20 || c == 0x7f {
				t.Fatalf("Text(%q) = %q: byte %#x at %d", s, out, c, i)
			}
		}
		for _, r := range out {
			if needs(r, utf8.RuneLen(r)) {
				t.Fatalf("Text(%q) = %q: %U left", s, out, r)
			}
		}
		clean := true
		for _, r := range s {
			if needs(r, utf8.RuneLen(r)) {
				clean = false
			}
		}
		if clean && utf8.ValidString(s) && out != s {
			t.Fatalf("Text(%q) = %q: changed text that needed nothing", s, out)
		}
	})
}

func TestPrintable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"/home/u/project/.envrc", "/home/u/project/.envrc"},
		{"/ws/a b", "/ws/a b"},
		{"/ws/x\nlite-sandbox: allowed", `"/ws/x\nlite-sandbox: allowed"`},
		{"/ws/\x1b]0;t\a", `"/ws/\x1b]0;t\a"`},
		{"/ws/\u202e", `"/ws/\u202e"`},
	} {
		if got := Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
