// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package exit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// constants returns the exported statuses declared in exit.go, by name,
// read from the source so that a new one cannot be left out of the test.
func constants(t *testing.T) map[string]int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "exit.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ast.IsExported(name.Name) || !ok {
					continue
				}
				v, err := strconv.Atoi(lit.Value)
				if err != nil {
					t.Fatalf("%s: %v", name.Name, err)
				}
				out[name.Name] = v
			}
		}
	}
	return out
}

// TestDocumentedStatuses: the README's table of exit statuses and the
// one in docs/commands.md list every status of this package, with its
// value, and none that it does not have (AGENTS.md: statuses live here
// and in the README's table, nowhere else).
func TestDocumentedStatuses(t *testing.T) {
	t.Parallel()
	consts := constants(t)
	if len(consts) < 8 {
		t.Fatalf("read %d statuses from exit.go, want at least 8: %v", len(consts), consts)
	}
	row := regexp.MustCompile("(?m)^\\| (\\d+) \\| `(\\w+)`")
	for _, doc := range []string{"../../README.md", "../../docs/commands.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		documented := map[string]int{}
		for _, m := range row.FindAllStringSubmatch(string(b), -1) {
			v, _ := strconv.Atoi(m[1])
			documented[m[2]] = v
		}
		for name, v := range consts {
			if got, ok := documented[name]; !ok || got != v {
				t.Errorf("%s: %s = %d is not in its exit-status table (found %d, %v)", doc, name, v, got, ok)
			}
		}
		for name, v := range documented {
			if _, ok := consts[name]; !ok {
				t.Errorf("%s: the table lists %s (%d), which internal/exit does not have", doc, name, v)
			}
		}
	}
	if got := Signaled(9); got != 137 {
		t.Errorf("Signaled(9) = %d, want 137 (the tables' 128+N)", got)
	}
}
