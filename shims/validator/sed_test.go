// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"reflect"
	"testing"
)

// TestSedRuns: what a GNU sed program runs (issue #26, finding 7).
func TestSedRuns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prog string
		runs []sedRun
		ok   bool
	}{
		{"s/a/b/g", nil, true},
		{"1e id", []sedRun{{cmd: "id", known: true}}, true},
		{"/x/{e rm -rf ~\n}", []sedRun{{cmd: "rm -rf ~", known: true}}, true},
		{"s/x/y/e", []sedRun{{}}, true},
		{"s/x/y/gpe;p", []sedRun{{}}, true},
		{"s/a/b/;e", []sedRun{{}}, true},
		{"s/e/E/w out.txt", nil, true},
		{"$!N;s/\\n/ /;ta", nil, true},
		{"1i\\\ne id", nil, true}, // inserted text, not a command
		{"y/abc/xyz/;2q;=", nil, true},
		{"0,/re/s//X/;/a/,+2d;1~2p;5!d", nil, true},
		{`\,x,d;s|a|b|I`, nil, true},
		{"# e id\np", nil, true},
		{"k", nil, false},
		{"s/unterminated", nil, false},
	} {
		runs, ok := sedRuns(c.prog)
		if ok != c.ok || !reflect.DeepEqual(runs, c.runs) {
			t.Errorf("sedRuns(%q) = %+v, %v; want %+v, %v", c.prog, runs, ok, c.runs, c.ok)
		}
	}
}

// FuzzSedRuns: the sed reader ends on any input.
func FuzzSedRuns(f *testing.F) {
	for _, s := range []string{"s/a/b/e", "1e id", "/x/{p}", `\,x,d`, "y/a/b/", "a\\", "0~3,+2!{e\n}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) { sedRuns(p) })
}
