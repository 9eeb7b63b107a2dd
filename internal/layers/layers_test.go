// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/lite-sandbox/lite-sandbox/"

// TestImportsRunDown: no production file imports a package of a layer
// above its own (#19).
func TestImportsRunDown(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		from := rank(strings.Split(filepath.ToSlash(rel), "/")[0])
		if from < 0 {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(path, module) {
				continue
			}
			n++
			top := strings.Split(strings.TrimPrefix(path, module), "/")[0]
			if to := rank(top); to > from {
				t.Errorf("%s imports %s: %s is above %s", rel, path, top, Order[from])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no import of the module was read: the walk found nothing")
	}
}

// TestRankControl: the check tells the layers apart.
func TestRankControl(t *testing.T) {
	if rank("cmd") <= rank("launch") || rank("shims") <= rank("sandbox") || rank("scripts") >= 0 {
		t.Errorf("ranks: %v", Order)
	}
}

func rank(top string) int { return slices.Index(Order, top) }
