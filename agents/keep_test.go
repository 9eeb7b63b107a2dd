// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"strings"
	"testing"
)

// TestMergeJSON: only the data keys come from after (globs per level,
// "*" also over a path key); everything else is before's, also keys no
// list names; nothing changed returns before's bytes.
func TestMergeJSON(t *testing.T) {
	t.Parallel()
	data := [][]string{{"n"}, {"projects", "*", "last*"}}
	before := []byte(`{"n": 1, "projects": {"/ws": {"trust": false}}}`)
	for _, c := range []struct{ name, after, want string }{
		{"data", `{"n": 2, "projects": {"/ws": {"trust": false, "lastCost": 3}}}`, `"lastCost": 3`},
		{"trust", `{"n": 1, "projects": {"/": {"trust": true}, "/ws": {"trust": true}}}`, `"trust": false`},
		{"unknown", `{"n": 1, "env": {"X": "y"}, "projects": {"/ws": {"trust": false}}}`, `"n": 1`},
		{"removed", `{"projects": {"/ws": {"trust": false}}}`, `"projects"`},
	} {
		out, err := MergeJSON(before, []byte(c.after), data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s := string(out)
		if !strings.Contains(s, c.want) || strings.Contains(s, "true") || strings.Contains(s, "env") || strings.Contains(s, `"/"`) {
			t.Errorf("%s: %s", c.name, s)
		}
	}
	if out, _ := MergeJSON(before, []byte(`{"n":1,"projects":{"/ws":{"trust":false}}}`), data); string(out) != string(before) {
		t.Errorf("unchanged: %s", out)
	}
	if _, err := MergeJSON(before, []byte(`[1]`), data); err == nil {
		t.Error("an array was merged")
	}
}

// TestFormats: each format check refuses what its file is not, and
// passes what it is (the controls).
func TestFormats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		check func(string) error
		ok    []string
		bad   []string
	}{
		{"lines", func(s string) error { return JSONLines(strings.NewReader(s)) }, []string{"", "{}\n", "{}\n\n[1]"}, []string{"{}\nnot json\n"}},
		{"doc", func(s string) error { return JSONDoc(strings.NewReader(s)) }, []string{"{}", "[]"}, []string{"{}{}", "x"}},
		{"sqlite", func(s string) error { return Magic("SQLite format 3\x00")(strings.NewReader(s)) }, []string{"", "SQLite format 3\x00..."}, []string{"#!/bin/sh\n"}},
		{"token", func(s string) error { return Token(strings.NewReader(s)) }, []string{"", "0a1b-2c\n"}, []string{"!id", "a b"}},
	} {
		for _, s := range c.ok {
			if err := c.check(s); err != nil {
				t.Errorf("%s: %q refused: %v", c.name, s, err)
			}
		}
		for _, s := range c.bad {
			if err := c.check(s); err == nil {
				t.Errorf("%s: %q passed", c.name, s)
			}
		}
	}
	if PlainToken("!curl x") || PlainToken("a\x1bb") || !PlainToken("sk-ant-123_x.y") {
		t.Error("PlainToken")
	}
}
