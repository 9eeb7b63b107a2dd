// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command lengths checks the house rule of AGENTS.md: every Go file
// (production and test) under 500 lines, every function under 80. It
// fails on a new offender and on a known one that grew; a known one that
// shrank below the limit must leave the list below, so the list only
// ever gets shorter. Run by scripts/lint (from scripts/test):
//
//	go run ./scripts/lengths [DIR]
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The limits: a file or a function at the limit is already too long.
const (
	maxFileLines = 500
	maxFuncLines = 80
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	problems, err := check(root, known)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lengths:", err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "lengths: %d problem(s); limits: a file under %d lines, a function under %d (AGENTS.md)\n",
			len(problems), maxFileLines, maxFuncLines)
		os.Exit(1)
	}
}

// item is one measured thing: a file ("path") or a function
// ("path:Recv.Name" or "path:Name"), with its length in lines.
type item struct {
	key   string
	lines int
	limit int
}

// check measures every .go file below root (skipping testdata and
// hidden directories) and returns one line per problem, sorted: an
// offender not in known, a known one longer than recorded, a known one
// now within the limit (to be removed from the list), a known one that
// no longer exists.
func check(root string, known map[string]int) ([]string, error) {
	items, err := measure(root)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		was, isKnown := known[it.key]
		seen[it.key] = true
		switch {
		case it.lines < it.limit && isKnown:
			out = append(out, fmt.Sprintf("%s: %d lines, now under %d: remove it from the known list in scripts/lengths", it.key, it.lines, it.limit))
		case it.lines < it.limit:
		case !isKnown:
			out = append(out, fmt.Sprintf("%s: %d lines (limit: under %d)", it.key, it.lines, it.limit))
		case it.lines > was:
			out = append(out, fmt.Sprintf("%s: %d lines, grew from %d (known offender: shorten it, do not grow it)", it.key, it.lines, was))
		}
	}
	for k := range known {
		if !seen[k] {
			out = append(out, fmt.Sprintf("%s: in the known list of scripts/lengths but gone: remove it", k))
		}
	}
	sort.Strings(out)
	return out, nil
}

// measure returns every file and function below root with its length.
func measure(root string) ([]item, error) {
	var items []item
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parse: %w", err)
		}
		items = append(items, fileItems(fset, filepath.ToSlash(rel), f)...)
		return nil
	})
	return items, err
}

// fileItems measures one parsed file: the file itself and each function
// or method declared in it (function literals count toward the function
// that holds them).
func fileItems(fset *token.FileSet, rel string, f *ast.File) []item {
	tf := fset.File(f.Pos())
	items := []item{{key: rel, lines: tf.LineCount(), limit: maxFileLines}}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
		items = append(items, item{key: rel + ":" + funcName(fd), lines: n, limit: maxFuncLines})
	}
	return items
}

// funcName is Name, or Recv.Name for a method (the receiver's type name
// without pointer or type parameters).
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
