// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// exampleError reports a rule example that does not behave as its rule
// says: a match example the rule does not win, or a not_match example it
// wins. It names the file, line and column of the rule (policy.Origin)
// and says what to change (docs/configuration.md, "Replacing and
// tightening a rule").
type exampleError struct {
	RuleID    string
	Origin    policy.Origin
	Decision  string
	Example   string
	WantMatch bool
	Got       Result
	// Alone: the rule matches the example by itself; another rule
	// decides it (By, when that is a rule of the policy).
	Alone bool
	By    *policy.Rule
}

func (e *exampleError) Error() string {
	at := ""
	if e.Origin.File != "" {
		at = e.Origin.String() + ": "
	}
	got := e.Got.Decision
	if e.Got.RuleID != "" {
		got += " " + e.Got.RuleID
	}
	switch {
	case !e.WantMatch:
		return fmt.Sprintf("%srule %s: not_match example %q is matched by the rule; narrow the rule or drop the example",
			at, e.RuleID, e.Example)
	case !e.Alone:
		return fmt.Sprintf("%srule %s: match example %q: want rule %s, got %s (%s); the rule does not match it: change the rule's command, sub, flags or args, or the example",
			at, e.RuleID, e.Example, e.RuleID, got, oneLine(e.Got.Reason))
	case e.By == nil:
		return fmt.Sprintf("%srule %s: match example %q: want rule %s, got %s (%s), a check of the validator's own; change the example",
			at, e.RuleID, e.Example, e.RuleID, got, oneLine(e.Got.Reason))
	case e.By.Origin.Layer < e.Origin.Layer:
		return fmt.Sprintf("%srule %s (%s): match example %q is decided by rule %s (%s) of %s, which matches it too and is at least as strict; "+
			"a rule beside it can only tighten it: to loosen or reword %s, replace it with a rule of the same id (id = %q)",
			at, e.RuleID, e.Decision, e.Example, e.By.ID, e.By.Decision, where(e.By.Origin), e.By.ID, e.By.ID)
	}
	return fmt.Sprintf("%srule %s (%s): match example %q is decided by rule %s (%s) at %s, which matches it too and wins (the strictest decision, then the first rule); narrow one of the two rules or change the example",
		at, e.RuleID, e.Decision, e.Example, e.By.ID, e.By.Decision, where(e.By.Origin))
}

// where names a rule's origin for a person: the built-in default by its
// line in shims/policy/default.toml, a file by
// file:line:col.
func where(o policy.Origin) string {
	if o.Layer == policy.LayerDefault {
		return fmt.Sprintf("the built-in default policy (shims/policy/default.toml line %d)", o.Line)
	}
	return o.String()
}

// checkExamples runs every rule's examples against p in ruleExampleEnv.
// A match example passes when its rule decides it, or when the rule
// matches it and a stricter rule of its own layer or above, or a rule as
// strict of a higher layer, decides it: the user's file may tighten a
// default rule (deny what it asks for) without replacing it, and a
// project file may only tighten, so a rule of its own may be outdone by
// any rule at least as strict. A rule that would loosen a rule of a lower
// layer beside it is an error that says how to replace that rule
// instead; two rules of one layer with the same decision on one example
// are an error too (only the first would ever be named).
func checkExamples(p *policy.Policy) error {
	env := ruleExampleEnv()
	v, err := compile(p, env)
	if err != nil {
		return err
	}
	byID := map[string]*rule{}
	for _, r := range v.rules {
		byID[r.ID] = r
	}
	var errs []error
	for _, r := range v.rules {
		for _, ex := range r.Match {
			got := v.Check(expandExample(ex, env))
			if got.RuleID == r.ID {
				continue
			}
			if e := outdone(p, r, byID[got.RuleID], ex, got, env); e != nil {
				errs = append(errs, e)
			}
		}
		for _, ex := range r.NotMatch {
			if got := v.Check(expandExample(ex, env)); got.RuleID == r.ID {
				errs = append(errs, &exampleError{RuleID: r.ID, Origin: r.Origin, Decision: r.Decision,
					Example: ex, WantMatch: false, Got: got})
			}
		}
	}
	return errors.Join(errs...)
}

// outdone judges a match example of r that another finding decided (by,
// when a rule of the policy): nil when r matches it alone and by is a
// tightening of r, else the error.
func outdone(p *policy.Policy, r, by *rule, ex string, got Result, env Env) error {
	e := &exampleError{RuleID: r.ID, Origin: r.Origin, Decision: r.Decision, Example: ex, WantMatch: true, Got: got}
	alone := p.Clone()
	alone.Rules = []policy.Rule{*r.Rule}
	va, err := compile(alone, env)
	if err != nil {
		return err
	}
	e.Alone = va.Check(expandExample(ex, env)).RuleID == r.ID
	if by != nil {
		e.By = by.Rule
	}
	if !e.Alone || by == nil {
		return e
	}
	rb, rr := policy.DecisionRank(by.Decision), policy.DecisionRank(r.Decision)
	switch {
	case rb > rr && by.Origin.Layer >= r.Origin.Layer: // a stricter rule beside it, or above
	case rb >= rr && by.Origin.Layer > r.Origin.Layer: // a rule of a higher layer, as strict
	case rb >= rr && r.Origin.Layer == policy.LayerProject: // a project rule may be outdone by any
	default:
		return e
	}
	return nil
}

// expandExample replaces ${workspace} in a rule example by the workspace
// of env, as documented on ruleExampleEnv.
func expandExample(ex string, env Env) string {
	return strings.ReplaceAll(ex, "${workspace}", env.Workspace)
}
