// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// nastySeeds are inputs that once broke shell tooling or might break the
// validator: process substitution (pitfall 2), unterminated constructs,
// NULs, invalid UTF-8, deep nesting.
var nastySeeds = []string{
	"<(x)", "cat <(x)", "echo >(x) <(y)", "x=<(y)", "${x:-<(y)}", "$(<(x))",
	"'", "\"", "$(", "${", "`", "<<EOF", "cat <<EOF\n$(", "$((", "[[", "((", "case",
	"\x00", "a\x00b", "'\x00'", "\xff", "\"\xfe\"", "$'\\x00'", "$'\\u200b'",
	"~", "~root", "~+", "~-/x", "cd ~nobody", "$HOME", "${HOME}", "${HOME:-x}",
	"{a,b}{c,d}{e,f}", "{1..9999999999}", "{a..z..0}", "@(a|b)", "!(x)",
	"a[", "a[$(", "declare", "declare -n", "export -- $(x)", "read -a",
	"eval", "eval ''", "sh -c", "bash -c ''", "env -S", "env -S ''", "xargs -I",
	"find -exec", "find -exec ;", "trap", "trap x", "flock", "flock f -c", "timeout",
	"coproc", "coproc x", "time", "! ", "function f", "f() {", "select x in; do :; done",
	"exec {fd}>&-", "{x}<&0", "echo ${x@P}", "echo ${!x}", "echo ${#x[@]}", "echo ${x[@]:1:2}",
	strings.Repeat("$(", 50) + strings.Repeat(")", 50),
	strings.Repeat("(", 100) + strings.Repeat(")", 100),
	strings.Repeat("bash -c '", 3) + "git push -f" + strings.Repeat("'", 3),
	strings.Repeat("eval ", 20) + "git push -f",
	// issue #26: find -delete, sed e, a shell reading <(...), named scripts.
	"find -delete", "find -D", "find -L -O3 \"$x\" -delete", "find . -exec rm {} +", "sed", "sed -e", "sed -i", "sed -f",
	"sed '1e'", "sed 's/x/y/e'", "sed \"s/$a/e\"", "bash <(x)", "source <(x)", ". <(x)", "bash < <(x)", "./x", "source",
}

func FuzzCheck(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.cmd)
	}
	for _, s := range nastySeeds {
		f.Add(s)
	}
	v := defaultValidator(f)
	f.Fuzz(func(t *testing.T, cmd string) {
		r := v.Check(cmd)
		checkResult(t, cmd, r)
		if r2 := v.Check(cmd); !reflect.DeepEqual(r2, r) {
			t.Fatalf("%q: not deterministic: %+v then %+v", cmd, r, r2)
		}
	})
}

// checkResult asserts the invariants of any result.
func checkResult(t *testing.T, cmd string, r Result) {
	t.Helper()
	if policy.DecisionRank(r.Decision) < 0 {
		t.Fatalf("%q: invalid decision %q", cmd, r.Decision)
	}
	if r.RuleID == idInternal {
		// Check recovered from a panic: that is a bug to fix.
		t.Fatalf("%q: %s", cmd, r.Reason)
	}
	if r.Line < 0 || r.Col < 0 {
		t.Fatalf("%q: bad position %d:%d", cmd, r.Line, r.Col)
	}
	if r.Allowed() != (r.Message() == "") {
		t.Fatalf("%q: message %q for decision %s", cmd, r.Message(), r.Decision)
	}
	if !r.Allowed() && (r.RuleID == "" || strings.Contains(r.Message(), "\n")) {
		t.Fatalf("%q: bad finding %+v", cmd, r)
	}
}

// TestPathological checks that hostile inputs are judged quickly and
// without a panic.
func TestPathological(t *testing.T) {
	t.Parallel()
	v := defaultValidator(t)
	mib := 1 << 20
	for _, tc := range []struct {
		name string
		cmd  string
		want string // expected decision
	}{
		{"nested-cmdsubst-10k", strings.Repeat("$(", 10000) + "x" + strings.Repeat(")", 10000), policy.Deny},
		{"nested-cmdsubst-args-10k", strings.Repeat("echo $(", 10000) + "git status" + strings.Repeat(")", 10000), policy.Allow},
		{"nested-subshell-10k", strings.Repeat("(", 10000) + "git push -f" + strings.Repeat(")", 10000), policy.Deny},
		{"nested-blocks", strings.Repeat("{ ", 5000) + "ls" + strings.Repeat("; }", 5000), policy.Allow},
		{"nested-if", strings.Repeat("if true; then ", 3000) + "ls" + strings.Repeat("; fi", 3000), policy.Allow},
		{"nested-loops-cd", strings.Repeat("while :; do cd ..; ", 500) + "ls" + strings.Repeat("; done", 500), policy.Allow},
		{"loops-around-mib", strings.Repeat("for i in a; do cd x; ", 100) + strings.Repeat("ls;", mib/4) + "ls" + strings.Repeat("; done", 100), policy.Allow},
		{"nested-arith", "echo $((" + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "))", policy.Allow},
		{"one-mib-word", "echo " + strings.Repeat("a", mib), policy.Allow},
		{"one-mib-statements", strings.Repeat("ls;", mib/3), policy.Allow},
		{"one-mib-pipeline", "ls" + strings.Repeat("|cat", mib/4), policy.Allow},
		{"one-mib-quoted", "echo '" + strings.Repeat("x", mib) + "'", policy.Allow},
		{"braces", strings.Repeat("echo {a,b}{c,d}{e,f}{g,h}{i,j}{k,l};", mib/160), policy.Allow},
		{"one-mib-args", "rm" + strings.Repeat(" f", mib/2), policy.Allow},
		{"last-bad", strings.Repeat("ls;", mib/12) + "git push -f", policy.Deny},
		{"many-heredocs", strings.Repeat("cat <<E\n$(ls)\nE\n", 20000), policy.Allow},
		{"deep-eval", strings.Repeat("eval ", 10000) + "ls", policy.Deny},
		{"deep-wrappers", strings.Repeat("nice ", 10000) + "ls", policy.Deny},
		{"huge-range", "echo {1..99999999999999999999}", policy.Allow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := checkWithin(t, v, tc.cmd)
			checkResult(t, tc.name, r)
			if r.Decision != tc.want {
				t.Errorf("got %s %s (%s), want %s", r.Decision, r.RuleID, r.Reason, tc.want)
			}
		})
	}
}

// TestConcurrent runs the corpus from several goroutines on one Validator
// (run with -race) and compares with sequential results.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	v := defaultValidator(t)
	cases := loadCorpus(t)
	want := make([]Result, len(cases))
	for i, c := range cases {
		if c.cwd == "" {
			want[i] = v.Check(c.cmd)
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, c := range cases {
				if c.cwd != "" {
					continue
				}
				if r := v.Check(c.cmd); !reflect.DeepEqual(r, want[i]) {
					t.Errorf("%q: got %+v, want %+v", c.cmd, r, want[i])
				}
			}
		}()
	}
	wg.Wait()
}

// TestUnknownNode checks the fail-closed default of the walker with a node
// Bash parsing never produces.
func TestUnknownNode(t *testing.T) {
	t.Parallel()
	v := defaultValidator(t)
	c := newChecker(v)
	sc := c.initialScope()
	c.command(&syntax.TestDecl{Description: &syntax.Word{}, Body: &syntax.Stmt{}}, &sc, stdin{})
	if r := c.result(); r.RuleID != idUnsupported || r.Decision != policy.Deny {
		t.Errorf("got %+v", r)
	}
}

// checkWithin is v.Check under a hang guard: minutes of slack, so that a
// busy machine never trips it (scripts/bench owns timings); only an
// input the validator does not finish on does.
func checkWithin(t *testing.T, v *Validator, cmd string) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- v.Check(cmd) }()
	select {
	case r := <-done:
		return r
	case <-time.After(5 * time.Minute):
		t.Fatal("no verdict after 5 minutes: the validator hangs on this input")
		return Result{}
	}
}
