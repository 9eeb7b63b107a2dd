// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// oddWorkspace has every character that breaks naive quoting: a double
// quote and a parenthesis (SBPL injection, escape class 33), a space and
// a newline.
const oddWorkspace = "/home/user/we\"ird) dir\nname"

// goldenCase is one fixed Spec rendered for both backends.
type goldenCase struct {
	name string
	spec func(t *testing.T) Spec
}

func goldenCases() []goldenCase {
	withDefault := func(ws string, f func(*Spec)) func(t *testing.T) Spec {
		return func(t *testing.T) Spec {
			s := defaultSpec(t, ws)
			if f != nil {
				f(&s)
			}
			return s
		}
	}
	return []goldenCase{
		{"default", withDefault("/home/user/project", nil)},
		{"tmp-workspace", withDefault("/tmp/ws", nil)},
		{"odd-path", withDefault(oddWorkspace, func(s *Spec) { s.Cwd = oddWorkspace + "/src" })},
		{"network-off", withDefault("/home/user/project", func(s *Spec) { s.Network = NetworkOff })},
		{"home-workspace", withDefault("/home/user", nil)},
		{"root-workspace", withDefault("/", nil)},
	}
}

// goldenFS is debianFS plus the odd workspace.
func goldenFS() fakeFS {
	f := debianFS()
	f[oddWorkspace] = "dir"
	f[oddWorkspace+"/src"] = "dir"
	return f
}

// checkGolden compares got with testdata/name, or rewrites it with
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

// argLines renders an argv as one JSON string per line, so that spaces,
// quotes and newlines inside arguments are visible.
func argLines(t *testing.T, args []string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, a := range args {
		if err := enc.Encode(a); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestBwrapGolden(t *testing.T) {
	t.Parallel()
	argv := []string{"/bin/sh", "-c", "echo \"$1\"", "sh", "arg with space"}
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			s := c.spec(t)
			ms, err := Layout(s, goldenFS())
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "bwrap-"+c.name+".golden", argLines(t, BwrapArgs(ms, s, argv)))
		})
	}
}

func TestSeatbeltGolden(t *testing.T) {
	t.Parallel()
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := SeatbeltProfile(c.spec(t))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "seatbelt-"+c.name+".golden", []byte(p))
		})
	}
}
