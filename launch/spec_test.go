// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneSpecBuild (#29): in the launcher's code (this package and the
// ones below it), the sandbox spec is built (Policy.SandboxSpec) and
// completed from the host (sandbox.DetectHost) at exactly one place
// each, newLaunchSpec; every other user takes a clone of that value.
// TestLaunchReadsOnce (agents/e2etest) traces a real launch for the
// same claim on the host's git state. The count includes the positive
// control: the one call each is found.
func TestOneSpecBuild(t *testing.T) {
	t.Parallel()
	calls := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if s, ok := c.Fun.(*ast.SelectorExpr); ok && (s.Sel.Name == "SandboxSpec" || s.Sel.Name == "DetectHost") {
					calls[s.Sel.Name] = append(calls[s.Sel.Name], fset.Position(c.Pos()).String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"SandboxSpec", "DetectHost"} {
		if at := calls[name]; len(at) != 1 || !strings.HasPrefix(at[0], "spec.go:") {
			t.Errorf("%s is called at %v, want once, in spec.go (newLaunchSpec)", name, at)
		}
	}
}
