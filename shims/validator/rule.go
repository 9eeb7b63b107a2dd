// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// rule is a compiled policy.Rule.
type rule struct {
	*policy.Rule
	names    map[string]bool // literal alternatives on the base name of argv[0]
	commands []string        // glob alternatives
	flags    []flagSpec      // any of
	notFlags []flagSpec      // none of
	args     []string        // lower-cased globs, any of
	paths    [][]string      // components of absolute paths, any of
}

// flagSpec is one compiled entry of flags or not_flags.
type flagSpec struct {
	name   string // "-f", "--force" or a single-dash word such as "-exec"
	glob   string // lower-cased glob on the value, when hasVal
	hasVal bool
}

func compileRule(pr *policy.Rule, env Env) (*rule, error) {
	r := &rule{Rule: pr}
	if pr.ID == "" {
		return nil, fmt.Errorf("rule without id")
	}
	if policy.DecisionRank(pr.Decision) < 0 {
		return nil, fmt.Errorf("rule %s: unknown decision %q", pr.ID, pr.Decision)
	}
	if pr.Command == "" {
		return nil, fmt.Errorf("rule %s: missing command", pr.ID)
	}
	r.names = map[string]bool{}
	for _, c := range braceAlternatives(pr.Command) {
		if c == "" || strings.Contains(c, "/") {
			return nil, fmt.Errorf("rule %s: command %q must be a base name glob", pr.ID, pr.Command)
		}
		if _, err := path.Match(c, ""); err != nil {
			return nil, fmt.Errorf("rule %s: command %q: %w", pr.ID, pr.Command, err)
		}
		if strings.ContainsAny(c, `*?[\`) {
			r.commands = append(r.commands, c)
		} else {
			r.names[c] = true
		}
	}
	for _, s := range pr.Sub {
		if s == "" {
			return nil, fmt.Errorf("rule %s: empty sub", pr.ID)
		}
	}
	var err error
	if r.flags, err = compileFlags(pr.ID, pr.Flags); err != nil {
		return nil, err
	}
	if r.notFlags, err = compileFlags(pr.ID, pr.NotFlags); err != nil {
		return nil, err
	}
	for _, a := range pr.Args {
		g := strings.ToLower(a)
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("rule %s: args %q: %w", pr.ID, a, err)
		}
		r.args = append(r.args, g)
	}
	// A listed path that needs an unknown home or workspace is left out:
	// the rule cannot apply to it (and matches nothing if none is left).
	for _, p := range pr.Paths {
		abs, ok, err := resolvePolicyPath(p, env)
		if err != nil {
			return nil, fmt.Errorf("rule %s: paths: %w", pr.ID, err)
		}
		if ok {
			r.paths = append(r.paths, splitPath(abs))
		}
	}
	return r, nil
}

// braceAlternatives splits a whole-pattern brace list "{a,b,c}".
func braceAlternatives(s string) []string {
	if len(s) >= 2 && s[0] == '{' && s[len(s)-1] == '}' {
		return strings.Split(s[1:len(s)-1], ",")
	}
	return []string{s}
}

func compileFlags(id string, list []string) ([]flagSpec, error) {
	var out []flagSpec
	for _, f := range list {
		fs, err := parseFlagSpec(f)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", id, err)
		}
		out = append(out, fs)
	}
	return out, nil
}

// parseFlagSpec parses "-f", "--force", "-c=GLOB" or "--opt=GLOB".
func parseFlagSpec(s string) (flagSpec, error) {
	name, glob, hasVal := strings.Cut(s, "=")
	if len(name) < 2 || name[0] != '-' || name == "--" {
		return flagSpec{}, fmt.Errorf("flag %q must start with - or -- and have a name", s)
	}
	fs := flagSpec{name: name, hasVal: hasVal}
	if hasVal {
		fs.glob = strings.ToLower(glob)
		if _, err := path.Match(fs.glob, ""); err != nil {
			return flagSpec{}, fmt.Errorf("flag %q: %w", s, err)
		}
	}
	return fs, nil
}
