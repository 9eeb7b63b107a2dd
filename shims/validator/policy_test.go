// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// TestDefaultPolicyExamples checks that every rule of the embedded default
// policy has a match example, that each example behaves (one subtest per
// example, so a failure names it), and that New accepts the policy.
func TestDefaultPolicyExamples(t *testing.T) {
	t.Parallel()
	p := policy.Default()
	env := ruleExampleEnv()
	v, err := compile(p, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Rules {
		t.Run(r.ID, func(t *testing.T) {
			if len(r.Match) == 0 {
				t.Errorf("rule %s has no match example", r.ID)
			}
			for _, ex := range r.Match {
				if got := v.Check(expandExample(ex, env)); got.RuleID != r.ID {
					t.Errorf("match %q: got %s %s (%s)", ex, got.Decision, got.RuleID, got.Reason)
				}
			}
			for _, ex := range r.NotMatch {
				if got := v.Check(expandExample(ex, env)); got.RuleID == r.ID {
					t.Errorf("not_match %q: matched", ex)
				}
			}
		})
	}
	if _, err := New(p, Env{Workspace: "/srv/project", Home: "/home/someone"}); err != nil {
		t.Errorf("New(policy.Default()): %v", err)
	}
}

// examplePolicy returns a small policy with one rule.
func examplePolicy(r policy.Rule) *policy.Policy {
	return &policy.Policy{
		Version: policy.Version,
		Shell:   policy.Shell{MaxDepth: 4, DenyEnv: []string{"LD_PRELOAD"}},
		Rules:   []policy.Rule{r},
	}
}

func TestBrokenExample(t *testing.T) {
	t.Parallel()
	base := policy.Rule{
		ID: "test.push", Decision: policy.Deny, Command: "git", Sub: []string{"push"},
		Flags: []string{"-f"}, Reason: "test",
	}
	for _, tc := range []struct {
		name      string
		match     []string
		notMatch  []string
		example   string
		wantMatch bool
	}{
		{"match-does-not", []string{"git push -f", "git push origin main"}, nil, "git push origin main", true},
		{"not-match-does", nil, []string{"git push origin x", "git push --force -f"}, "git push --force -f", false},
		{"parse-error", []string{"git push -f '"}, nil, "git push -f '", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := base
			r.Match, r.NotMatch = tc.match, tc.notMatch
			_, err := New(examplePolicy(r), Env{Workspace: "/w", Home: "/h"})
			var ee *exampleError
			if !errors.As(err, &ee) {
				t.Fatalf("New: got %v, want an *exampleError", err)
			}
			if ee.RuleID != "test.push" || ee.Example != tc.example || ee.WantMatch != tc.wantMatch {
				t.Errorf("got %+v", ee)
			}
			if !strings.Contains(err.Error(), "test.push") || !strings.Contains(err.Error(), tc.example) {
				t.Errorf("error %q does not name the rule and the example", err)
			}
		})
	}
}

// TestExampleWorkspace checks that ${workspace} in an example means the
// example environment's workspace.
func TestExampleWorkspace(t *testing.T) {
	t.Parallel()
	r := policy.Rule{
		ID: "test.ws", Decision: policy.Ask, Command: "rm", Paths: []string{"${workspace}/keep"},
		Reason: "test", Match: []string{"rm ${workspace}/keep", "rm -r ${workspace}", "rm keep", "rm ."},
		NotMatch: []string{"rm ${workspace}/keep/x", "rm /tmp/keep"},
	}
	if _, err := New(examplePolicy(r), Env{Workspace: "/elsewhere"}); err != nil {
		t.Fatal(err)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	ok := policy.Rule{ID: "t", Decision: policy.Deny, Command: "x", Reason: "r"}
	for _, tc := range []struct {
		name string
		edit func(*policy.Policy)
		env  Env
		want string
	}{
		{"bad-command-glob", func(p *policy.Policy) { p.Rules[0].Command = "[x" }, Env{}, "command"},
		{"command-path", func(p *policy.Policy) { p.Rules[0].Command = "/bin/x" }, Env{}, "base name"},
		{"bad-flag", func(p *policy.Policy) { p.Rules[0].Flags = []string{"f"} }, Env{}, "flag"},
		{"bad-flag-glob", func(p *policy.Policy) { p.Rules[0].Flags = []string{"-c=[x"} }, Env{}, "flag"},
		{"bad-args-glob", func(p *policy.Policy) { p.Rules[0].Args = []string{"[x"} }, Env{}, "args"},
		{"relative-path", func(p *policy.Policy) { p.Rules[0].Paths = []string{"x/y"} }, Env{}, "paths"},
		{"bad-decision", func(p *policy.Policy) { p.Rules[0].Decision = "maybe" }, Env{}, "decision"},
		{"no-command", func(p *policy.Policy) { p.Rules[0].Command = "" }, Env{}, "command"},
		{"duplicate-id", func(p *policy.Policy) { p.Rules = append(p.Rules, p.Rules[0]) }, Env{}, "twice"},
		{"bad-deny-env", func(p *policy.Policy) { p.Shell.DenyEnv = []string{"[x"} }, Env{}, "deny_env"},
		{"bad-deny-path", func(p *policy.Policy) { p.Sandbox.Deny = []string{"relative"} }, Env{}, "sandbox.deny"},
		{"negative-depth", func(p *policy.Policy) { p.Shell.MaxDepth = -1 }, Env{}, "max_depth"},
		{"relative-env", func(*policy.Policy) {}, Env{Workspace: "ws"}, "workspace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := examplePolicy(ok)
			tc.edit(p)
			_, err := New(p, tc.env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: got %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := New(nil, Env{}); err == nil {
		t.Error("New(nil): no error")
	}
}

func TestMessage(t *testing.T) {
	t.Parallel()
	r := Result{Decision: policy.Deny, RuleID: "a.b", Reason: "Bad\nthing.", Hint: "Do  other."}
	if got, want := r.Message(), "lite-sandbox: blocked by a.b: Bad thing. Hint: Do other."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	r.Hint = ""
	if got, want := r.Message(), "lite-sandbox: blocked by a.b: Bad thing."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (Result{Decision: policy.Allow}).Message(); got != "" {
		t.Errorf("allowed: got %q", got)
	}
	if (Result{Decision: policy.Ask}).Allowed() {
		t.Error("ask is not allowed")
	}
}

// TestAskAndAllowRules checks the strictest-decision order with rules of
// every decision.
func TestAskAndAllowRules(t *testing.T) {
	t.Parallel()
	p := &policy.Policy{Rules: []policy.Rule{
		{ID: "allow.git", Decision: policy.Allow, Command: "git", Reason: "ok"},
		{ID: "ask.push", Decision: policy.Ask, Command: "git", Sub: []string{"push"}, Reason: "ask"},
		{ID: "deny.force", Decision: policy.Deny, Command: "git", Sub: []string{"push"}, Flags: []string{"-f"}, Reason: "no"},
		{ID: "ask.rm", Decision: policy.Ask, Command: "rm", Reason: "ask"},
	}}
	v, err := New(p, Env{Workspace: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{
		"git status":                "allow allow.git",
		"git push":                  "ask ask.push",
		"git push -f":               "deny deny.force",
		"rm x; git push -f; rm y":   "deny deny.force",
		"rm x; git push":            "ask ask.rm",
		"git status; echo x":        "allow allow.git",
		"echo x":                    "allow",
		"git push; rm x":            "ask ask.push",
		"git status; $(git push)":   "deny shell.dynamic-command",
		"git status && git push -f": "deny deny.force",
	} {
		if r := v.Check(cmd); got(r) != want {
			t.Errorf("%q: got %s, want %s", cmd, got(r), want)
		}
	}
}

func TestCheckArgv(t *testing.T) {
	t.Parallel()
	v := defaultValidator(t)
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "push", "-f"}, "deny git.push.force"},
		{[]string{"git", "commit", "-m", "x; git push -f"}, "allow"},
		{[]string{"echo", "$(git push -f)"}, "allow"},
		{[]string{"sh", "-c", "git push -f"}, "deny git.push.force"},
		{[]string{"cat", "/home/user/.ssh/id_rsa"}, "deny path.denied"},
		{[]string{"g\u200bit", "push"}, "deny shell.deceptive-bytes"},
		{[]string{"echo", "a\x00b"}, "deny shell.deceptive-bytes"},
		{[]string{"echo", "a\rb"}, "allow"},
		// The default ask rules (docs/validator.md §8), and their
		// neighbours that stay allowed or denied.
		{[]string{"npm", "publish"}, "ask pkg.publish"},
		{[]string{"npm", "publish", "--dry-run"}, "allow"},
		{[]string{"sh", "-c", "cd pkg && cargo publish"}, "ask pkg.publish"},
		{[]string{"git", "push", "origin", "--delete", "topic"}, "ask git.push.delete"},
		{[]string{"git", "push", "origin", ":refs/heads/topic"}, "ask git.push.delete-refspec"},
		{[]string{"git", "push", "--force", "--delete", "origin", "x"}, "deny git.push.force"},
		{[]string{"git", "push", "origin", "+refs/heads/main"}, "deny git.push.refspec"},
		{[]string{"terraform", "apply", "-auto-approve"}, "ask infra.apply"},
		{[]string{"terraform", "plan"}, "allow"},
		{[]string{"kubectl", "delete", "pod", "x"}, "ask infra.kubectl"},
		// Global options before the subcommand, and flags that look
		// like a dry run but are not one.
		{[]string{"kubectl", "-n", "prod", "delete", "pod", "x"}, "ask infra.kubectl"},
		{[]string{"kubectl", "apply", "-f", "x.yaml", "--dry-run=none"}, "ask infra.kubectl"},
		{[]string{"kubectl", "apply", "-f", "x.yaml", "--dry-run=client"}, "allow"},
		{[]string{"pulumi", "--cwd", "infra", "destroy"}, "ask infra.apply"},
		{[]string{"yarn", "--cwd", "pkg", "publish"}, "ask pkg.publish"},
		{[]string{"yarn", "workspace", "web", "npm", "publish"}, "ask pkg.publish.yarn-berry"},
		{[]string{"poetry", "publish", "--build", "-n"}, "ask pkg.publish"},
		{[]string{"git", "push", "origin", ":"}, "allow"},
		{[]string{"git", "push", "--prune", "--delete", "origin", "x"}, "deny git.push.force"},
	} {
		if r := v.CheckArgv(tc.argv); got(r) != tc.want {
			t.Errorf("%q: got %s (%s), want %s", tc.argv, got(r), r.Reason, tc.want)
		}
	}
}

// defaultValidator returns a validator for the default policy in the
// example environment.
func defaultValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := compile(policy.Default(), ruleExampleEnv())
	if err != nil {
		t.Fatal(err)
	}
	return v
}
