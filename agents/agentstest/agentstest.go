// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package agentstest holds what the adapters' tests share: a fixed
// session and golden files of the generated plan (go test -update
// rewrites them).
package agentstest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Session is a fixed session for golden tests.
func Session(t *testing.T, version string, args ...string) agents.Session {
	t.Helper()
	home := t.TempDir()
	return agents.Session{
		Dir:       "/run/user/1000/lite-sandbox/s-0123456789abcdef",
		Shim:      "/run/user/1000/lite-sandbox/s-0123456789abcdef/bin/bash",
		Exe:       "/usr/local/bin/lite-sandbox",
		Workspace: "/home/user/project",
		Home:      home,
		TmpDir:    "/tmp/lite-sandbox-agent-42",
		Agent:     agents.Detected{Path: "/usr/local/bin/agent", Version: version},
		Args:      args,
		Getenv:    func(string) string { return "" },
	}
}

type goldenFile struct {
	Path    string `json:"path"`
	Link    string `json:"link,omitempty"`
	Content string `json:"content,omitempty"`
}

type goldenPlan struct {
	Argv     []string     `json:"argv"`
	Env      []string     `json:"env,omitempty"`
	Unset    []string     `json:"unset,omitempty"`
	Files    []goldenFile `json:"files,omitempty"`
	Warnings []string     `json:"warnings,omitempty"`
}

// Golden compares the plan with testdata/<name>.golden.
func Golden(t *testing.T, name string, p agents.Plan) {
	t.Helper()
	g := goldenPlan{Argv: p.Argv, Env: p.Env, Unset: p.Unset, Warnings: p.Warnings}
	for _, f := range p.Files {
		g.Files = append(g.Files, goldenFile{Path: f.Path, Link: f.Link, Content: string(f.Content)})
	}
	got, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Check is a checker for hook tests: it denies commands containing
// "push --force" with the validator's kind of line.
func Check(cmd string) agents.Verdict {
	if bytes.Contains([]byte(cmd), []byte("push --force")) {
		return agents.Verdict{Message: "lite-sandbox: blocked by git.push.force: Rewrites history."}
	}
	return agents.Verdict{Allowed: true}
}

// RingSession is a session for an adapter's ring State, with the
// environment env (nil: empty).
func RingSession(env map[string]string) agents.Session {
	return agents.Session{Dir: "/run/s-1", Home: "/home/u", Getenv: func(k string) string { return env[k] }}
}

// CheckState asserts the shape of an adapter's ring state: every path
// of data is writable or kept, every code-bearing path lies in one of
// the state Dirs (so it is visible), in no Write path and is no kept
// file (so it is read-only by construction, whatever link leads there:
// issue #17).
func CheckState(t *testing.T, st agents.State, dirs, data, code []string) {
	t.Helper()
	for _, d := range dirs {
		if !slices.Contains(st.Dirs, d) {
			t.Errorf("Dirs lacks %s: %v", d, st.Dirs)
		}
	}
	for _, w := range data {
		if !slices.Contains(st.Write, w) && !isKept(st, w) {
			t.Errorf("%s is neither in Write %v nor kept %v", w, st.Write, st.Keep)
		}
	}
	for _, c := range code {
		if isKept(st, c) {
			t.Errorf("code-bearing %s is a kept data file (%v)", c, st.Keep)
		}
		for _, w := range st.Write {
			if c == w || strings.HasPrefix(c, w+"/") {
				t.Errorf("code-bearing %s is writable through %s", c, w)
			}
		}
		in := false
		for _, d := range st.Dirs {
			in = in || strings.HasPrefix(c, d+"/")
		}
		if !in {
			t.Errorf("code-bearing %s lies in no state dir %v", c, st.Dirs)
		}
	}
	// Escape classes 53 to 55: each kept file says what of it is data.
	for _, k := range st.Keep {
		if (k.Merge == nil) == (k.Format == nil) {
			t.Errorf("kept %s declares no check of what is data (or two): exactly one of Merge and Format", k.Name)
		}
	}
	for _, d := range st.Dirs {
		if slices.Contains(st.Write, d) {
			t.Errorf("state dir %s is writable whole", d)
		}
	}
}

// isKept says whether p is one of st's kept data files.
func isKept(st agents.State, p string) bool {
	if !slices.Contains(st.Dirs, filepath.Dir(p)) {
		return false
	}
	for _, k := range st.Keep {
		if ok, _ := filepath.Match(k.Name, filepath.Base(p)); ok {
			return true
		}
	}
	return false
}
