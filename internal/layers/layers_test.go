// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package layers

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
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
			if err := sandboxImport(filepath.ToSlash(rel), strings.TrimPrefix(path, module)); err != nil {
				t.Error(err)
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

// TestSandboxOrder: the check inside sandbox/ refuses an import that
// runs up or sideways, or names a package the order does not list, and
// lets the ones that run down through.
func TestSandboxOrder(t *testing.T) {
	t.Parallel()
	const p = "github.com/lite-sandbox/lite-sandbox/"
	cases := []struct {
		file, imp string
		ok        bool
	}{
		{"sandbox/run_linux.go", "sandbox/probe", true},
		{"sandbox/probe/kernel_linux.go", "sandbox/confine", true},
		{"sandbox/egress/egresstest/x.go", "sandbox/egress", true},
		{"sandbox/worker/x.go", "internal/exit", true},
		{"shims/x.go", "sandbox/probe", true},
		{"sandbox/pathjudge/judge.go", "sandbox", true},
		{"sandbox/judge.go", "sandbox/pathjudge", false},
		{"sandbox/probe/x.go", "sandbox", false},
		{"sandbox/confine/x.go", "sandbox/worker", false},
		{"sandbox/probe/x.go", "sandbox/worker", false},
		{"sandbox/newpart/x.go", "sandbox/confine", false},
		{"sandbox/x.go", "sandbox/newpart", false},
	}
	for _, c := range cases {
		err := sandboxImport(c.file, strings.TrimPrefix(p+c.imp, module))
		if (err == nil) != c.ok {
			t.Errorf("%s imports %s: %v, want ok=%v", c.file, c.imp, err, c.ok)
		}
	}
}

func rank(top string) int { return slices.Index(Order, top) }

// sandboxImport checks one import of the file rel (slash-separated,
// from the module root) against the order inside sandbox/: nil when
// either is outside sandbox/, the import stays in the file's own
// folder, or it runs to a lower level.
func sandboxImport(rel, imp string) error {
	from, ok := sandboxPart(path.Dir(rel))
	to, ok2 := sandboxPart(imp)
	if !ok || !ok2 || from == to {
		return nil
	}
	lf, lt := sandboxLevel(from), sandboxLevel(to)
	switch {
	case lf < 0:
		return fmt.Errorf("%s: sandbox/%s is not in layers.Sandbox", rel, from)
	case lt < 0:
		return fmt.Errorf("%s imports %s: sandbox/%s is not in layers.Sandbox", rel, imp, to)
	case lt >= lf:
		return fmt.Errorf("%s imports %s: sandbox/%s is not below sandbox/%s", rel, imp, to, from)
	}
	return nil
}

// sandboxPart is the first folder below sandbox/ of a package directory
// ("" for the root), and whether dir is in sandbox/ at all.
func sandboxPart(dir string) (string, bool) {
	if dir == "sandbox" {
		return "", true
	}
	rest, ok := strings.CutPrefix(dir, "sandbox/")
	if !ok {
		return "", false
	}
	return strings.Split(rest, "/")[0], true
}

func sandboxLevel(part string) int {
	for i, level := range Sandbox {
		if slices.Contains(level, part) {
			return i
		}
	}
	return -1
}
