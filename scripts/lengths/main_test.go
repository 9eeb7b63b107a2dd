// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeGo writes a file of package p with one function of n body lines.
func writeGo(t *testing.T, dir, name string, n int) {
	t.Helper()
	src := "package p\n\nfunc F() {\n" + strings.Repeat("\t_ = 1\n", n) + "}\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		body  int // body lines of F: the function is body+2 lines long
		known map[string]int
		want  string // a substring of the one problem; "" for none
	}{
		{"short function passes", 10, nil, ""},
		{"function at the limit", maxFuncLines - 2, nil, "a.go:F: 80 lines"},
		{"file too long", maxFileLines, map[string]int{"a.go:F": 502}, "a.go: 504 lines"},
		{"known offender unchanged", 90, map[string]int{"a.go:F": 92}, ""},
		{"known offender grew", 91, map[string]int{"a.go:F": 92}, "grew from 92"},
		{"known offender fixed", 10, map[string]int{"a.go:F": 92}, "remove it from the known list"},
		{"known offender gone", 10, map[string]int{"b.go:G": 92}, "b.go:G: in the known list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeGo(t, dir, "a.go", tt.body)
			// testdata is not the house's code: never measured.
			if err := os.Mkdir(filepath.Join(dir, "testdata"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeGo(t, filepath.Join(dir, "testdata"), "big.go", 2*maxFileLines)
			got, err := check(dir, tt.known)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Fatalf("problems %q, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], tt.want) {
				t.Fatalf("problems %q, want one containing %q", got, tt.want)
			}
		})
	}
}

func TestFuncName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := "package p\n\ntype T[X any] struct{}\n\nfunc (T[X]) A() {}\n\nfunc (*T[X]) B() {}\n\nfunc C() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	items, err := measure(dir)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, it := range items {
		keys = append(keys, it.key)
	}
	if got, want := strings.Join(keys, " "), "m.go m.go:T.A m.go:T.B m.go:C"; got != want {
		t.Fatalf("keys %q, want %q", got, want)
	}
}
