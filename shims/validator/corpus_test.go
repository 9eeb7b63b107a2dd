// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// The bypass corpus lives in testdata/*.txtar. In each archive:
//
// The archive comment describes the file. A line "# class N: title" says
// that its cases cover bypass class N of docs/validator.md §7;
// TestCorpusCoversClasses requires at least three cases per class 1-21.
//
// A file named policy.toml is a policy fragment, loaded as a user layer
// over the embedded default for every case of the archive.
//
// Every other file is one case, made of lines:
//
//	# ...            a comment: say why; "contained by the sandbox" for
//	                 cases the OS sandbox handles rather than the validator
//	want: D [ID]     the expected decision and rule id, for example
//	                 "want: allow" or "want: deny git.push.force"
//	at: L:C          optional: the expected position of the finding
//	reason: REGEXP   optional: the refusal's "REASON Hint: HINT" matches it
//	cwd: /dir        optional: the directory the command starts in
//	mode: script     optional: judge it as a script file (CheckScript)
//	cmd: TEXT        the command, on one line
//	cmdq: "..."      the command as a Go-quoted string (for control and
//	                 invisible characters)
//	cmd:             alone on its line: the rest of the file, minus its
//	                 final newline, is the command (multi-line commands)
//
// Every case runs with Env{Workspace: /work/ws, Home: /home/user, Cwd:
// /work/ws or the cwd: line}. With -update, the want: and at: lines are
// rewritten from the actual results (review the diff before keeping it).
var update = flag.Bool("update", false, "rewrite the expectations of testdata/*.txtar from the actual results")

type corpusCase struct {
	name    string
	cmd     string
	want    string // "deny git.push.force"
	at      string // "1:5" or ""
	cwd     string
	reason  *regexp.Regexp // the reason and hint of a refusal must match
	script  bool           // mode: script
	classes []int
	archive string
}

var classLine = regexp.MustCompile(`(?m)^# class (\d+):`)

// corpusEnv is the environment of every corpus case.
func corpusEnv(cwd string) Env {
	e := ruleExampleEnv()
	if cwd != "" {
		e.Cwd = cwd
	}
	return e
}

// loadPolicy returns the default policy with an optional fragment loaded
// over it as a user layer.
func loadPolicy(t testing.TB, fragment []byte) *policy.Policy {
	t.Helper()
	if fragment == nil {
		return policy.Default()
	}
	f := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(f, fragment, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Load(policy.Options{UserFile: f, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatalf("policy fragment: %v", err)
	}
	return p
}

// parseCase parses one case file of the corpus.
func parseCase(data []byte) (c corpusCase, err error) {
	lines := strings.SplitAfter(string(data), "\n")
	for i, line := range lines {
		l := strings.TrimRight(line, "\n")
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case l == "cmd:":
			c.cmd = strings.TrimSuffix(strings.Join(lines[i+1:], ""), "\n")
			return c, c.check()
		case strings.HasPrefix(l, "cmd: "):
			c.cmd = strings.TrimPrefix(l, "cmd: ")
		case strings.HasPrefix(l, "cmdq: "):
			if c.cmd, err = strconv.Unquote(strings.TrimPrefix(l, "cmdq: ")); err != nil {
				return c, fmt.Errorf("cmdq: %w", err)
			}
		case strings.HasPrefix(l, "want: "):
			c.want = strings.TrimPrefix(l, "want: ")
		case strings.HasPrefix(l, "reason: "):
			if c.reason, err = regexp.Compile(strings.TrimPrefix(l, "reason: ")); err != nil {
				return c, fmt.Errorf("reason: %w", err)
			}
		case strings.HasPrefix(l, "at: "):
			c.at = strings.TrimPrefix(l, "at: ")
		case strings.HasPrefix(l, "cwd: "):
			c.cwd = strings.TrimPrefix(l, "cwd: ")
		case l == "mode: script":
			c.script = true
		default:
			return c, fmt.Errorf("line %d: unknown line %q", i+1, l)
		}
	}
	return c, c.check()
}

func (c corpusCase) check() error {
	if c.cmd == "" {
		return fmt.Errorf("no cmd")
	}
	if c.want == "" && !*update {
		return fmt.Errorf("no want")
	}
	return nil
}

// got formats a result the way want: lines are written.
func got(r Result) string {
	if r.RuleID == "" {
		return r.Decision
	}
	return r.Decision + " " + r.RuleID
}

// rewriteCase replaces the want: and at: lines of a case file.
func rewriteCase(data []byte, r Result) []byte {
	var out bytes.Buffer
	lines := strings.SplitAfter(string(data), "\n")
	wrote := false
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "want: ") || strings.HasPrefix(line, "want:\n"):
			out.WriteString("want: " + got(r) + "\n")
			wrote = true
			continue
		case strings.HasPrefix(line, "at: "):
			out.WriteString(fmt.Sprintf("at: %d:%d\n", r.Line, r.Col))
			continue
		case strings.TrimRight(line, "\n") == "cmd:" || strings.HasPrefix(line, "cmd: ") || strings.HasPrefix(line, "cmdq: "):
			if !wrote {
				out.WriteString("want: " + got(r) + "\n")
				wrote = true
			}
			out.WriteString(strings.Join(lines[i:], ""))
			return out.Bytes()
		}
		out.WriteString(line)
	}
	return out.Bytes()
}

func TestCorpus(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var fragment []byte
			for _, f := range ar.Files {
				if f.Name == "policy.toml" {
					fragment = f.Data
				}
			}
			p := loadPolicy(t, fragment)
			validators := map[string]*Validator{}
			changed := false
			for i, f := range ar.Files {
				if f.Name == "policy.toml" {
					continue
				}
				c, err := parseCase(f.Data)
				if err != nil {
					t.Errorf("%s: %v", f.Name, err)
					continue
				}
				v := validators[c.cwd]
				if v == nil {
					// compile, not New: the rule examples are tested on
					// their own in TestDefaultPolicyExamples.
					if v, err = compile(p, corpusEnv(c.cwd)); err != nil {
						t.Fatal(err)
					}
					validators[c.cwd] = v
				}
				r := v.Check(c.cmd)
				if c.script {
					r = v.CheckScript(c.cmd)
				}
				if *update {
					if nd := rewriteCase(f.Data, r); !bytes.Equal(nd, f.Data) {
						ar.Files[i].Data = nd
						changed = true
					}
					continue
				}
				if c.reason != nil && !r.Allowed() && !c.reason.MatchString(r.Reason+" Hint: "+r.Hint) {
					t.Errorf("%s: %q: reason %q does not match %q", f.Name, c.cmd, r.Reason+" Hint: "+r.Hint, c.reason)
				}
				if got(r) != c.want {
					t.Errorf("%s: %q\n got: %s (%s)\nwant: %s", f.Name, c.cmd, got(r), r.Reason, c.want)
				}
				if c.at != "" && fmt.Sprintf("%d:%d", r.Line, r.Col) != c.at {
					t.Errorf("%s: %q: finding at %d:%d, want %s", f.Name, c.cmd, r.Line, r.Col, c.at)
				}
				if !r.Allowed() && !strings.HasPrefix(r.Message(), "lite-sandbox: blocked by "+r.RuleID+": ") {
					t.Errorf("%s: bad message %q", f.Name, r.Message())
				}
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// loadCorpus returns every case of the corpus with the classes of its
// archive.
func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	files, _ := filepath.Glob("testdata/*.txtar")
	var out []corpusCase
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var classes []int
		for _, m := range classLine.FindAllStringSubmatch(string(ar.Comment), -1) {
			n, _ := strconv.Atoi(m[1])
			classes = append(classes, n)
		}
		for _, f := range ar.Files {
			if f.Name == "policy.toml" {
				continue
			}
			c, err := parseCase(f.Data)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, f.Name, err)
			}
			c.name, c.classes, c.archive = f.Name, classes, file
			out = append(out, c)
		}
	}
	return out
}

// TestCorpusCoversClasses checks that every bypass class of
// docs/validator.md §7 has at least three cases.
func TestCorpusCoversClasses(t *testing.T) {
	t.Parallel()
	count := map[int]int{}
	for _, c := range loadCorpus(t) {
		for _, n := range c.classes {
			count[n]++
		}
	}
	for n := 1; n <= 21; n++ {
		if count[n] < 3 {
			t.Errorf("bypass class %d has %d corpus cases, want at least 3", n, count[n])
		}
	}
	seen := map[string]bool{}
	for _, c := range loadCorpus(t) {
		key := c.archive + "/" + c.name
		if seen[key] {
			t.Errorf("duplicate case name %s", key)
		}
		seen[key] = true
	}
	t.Logf("%d corpus cases", len(seen))
}
