// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Paths are compared component by component, never as strings, so that
// ~/.sshfoo is not taken for something under ~/.ssh (class 8). Components
// that hold glob metacharacters are matched as Bash patterns.

// splitPath returns the components of a clean absolute path ("/" has none).
func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// globMatch matches one path component against a Bash pattern. Like Bash
// without dotglob, a pattern that does not start with "." does not match a
// name that does. A malformed pattern matches (fail closed).
func globMatch(pat, name string) bool {
	if pat == "**" {
		return true
	}
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	// Bash accepts [!x] for a negated class; path.Match wants [^x].
	pat = strings.ReplaceAll(pat, "[!", "[^")
	ok, err := path.Match(pat, name)
	return ok || err != nil
}

// compMatch reports whether two components can name the same entry; either
// may be a pattern. Two patterns are assumed to overlap.
func compMatch(a, b string) bool {
	if a == b {
		return true
	}
	am, bm := hasMeta(a), hasMeta(b)
	switch {
	case !am && !bm:
		return a == b
	case am && bm:
		return true
	case am:
		return globMatch(a, b)
	default:
		return globMatch(b, a)
	}
}

// patternWithin reports whether the path pattern p names base or something inside it.
func patternWithin(p, base []string) bool {
	if len(p) < len(base) && !slices.Contains(p, "**") {
		return false
	}
	for i, b := range base {
		if i >= len(p) {
			return false
		}
		if p[i] == "**" {
			return true
		}
		if !compMatch(p[i], b) {
			return false
		}
	}
	return true
}

// covers reports whether dir is target or one of its ancestors.
func covers(dir, target []string) bool {
	for i, d := range dir {
		if d == "**" {
			return true
		}
		if i >= len(target) || !compMatch(d, target[i]) {
			return false
		}
	}
	return true
}

// denyPath is one compiled sandbox.deny entry.
type denyPath struct {
	text  string   // as written in the policy
	path  string   // absolute, cleaned
	slash string   // path + "/", or "/" for the root
	comps []string // components of path
	meta  bool     // path holds glob metacharacters
}

// compileDenyPath resolves a sandbox.deny entry for env. ok is false when
// the entry cannot apply (it starts with ~ and the home is unknown).
func compileDenyPath(d string, env Env) (denyPath, bool, error) {
	p, ok, err := resolvePolicyPath(d, env)
	if err != nil || !ok {
		return denyPath{}, false, err
	}
	for _, c := range splitPath(p) {
		if _, err := path.Match(strings.ReplaceAll(c, "[!", "[^"), ""); err != nil {
			return denyPath{}, false, fmt.Errorf("%q: %w", d, err)
		}
	}
	slash := p + "/"
	if p == "/" {
		slash = "/"
	}
	return denyPath{text: d, path: p, slash: slash, comps: splitPath(p), meta: hasMeta(p)}, true, nil
}

// resolvePolicyPath turns "~", "~/x", "${workspace}/x" or "/x" into a
// clean absolute path.
func resolvePolicyPath(p string, env Env) (string, bool, error) {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if env.Home == "" {
			return "", false, nil
		}
		return path.Join(env.Home, p[1:]), true, nil
	case p == "${workspace}" || strings.HasPrefix(p, "${workspace}/"):
		if env.Workspace == "" {
			return "", false, nil
		}
		return path.Join(env.Workspace, strings.TrimPrefix(p, "${workspace}")), true, nil
	case path.IsAbs(p):
		return path.Clean(p), true, nil
	}
	return "", false, fmt.Errorf("path %q must be absolute or start with ~/ or ${workspace}", p)
}

// pathCandidates returns the strings of one argument that may name a
// file: the argument itself and, for --opt=VALUE, -fVALUE and NAME=VALUE
// forms, the value (class 8: grep -f/etc/passwd, --file=…, dd if=…). A
// value starting with ~/ is expanded, as Bash does for NAME=~/x.
func pathCandidates(s string, sc *scope) []string {
	if s == "" {
		return nil
	}
	out := []string{s}
	var val string
	switch {
	case strings.HasPrefix(s, "--"):
		_, val, _ = strings.Cut(s, "=")
	case strings.HasPrefix(s, "-") && len(s) > 2:
		val = s[2:]
		if _, v, ok := strings.Cut(s, "="); ok {
			out = append(out, v)
		}
	default:
		_, val, _ = strings.Cut(s, "=")
	}
	if val != "" {
		if sc.homeOK && (val == "~" || strings.HasPrefix(val, "~/")) {
			val = sc.home + val[1:]
		}
		out = append(out, val)
	}
	return out
}

// dirPrefix returns the directory part of a dynamic word's known leading
// text: everything up to its last "/" ("" when there is none).
func dirPrefix(prefix string) string {
	i := strings.LastIndexByte(prefix, '/')
	if i < 0 {
		return ""
	}
	return prefix[:i+1]
}

// deniedPath returns the first sandbox.deny entry that a names (or that
// contains what it names), and the resolved path for the message.
func (v *Validator) deniedPath(a arg, sc *scope) (string, bool) {
	if len(v.deny) == 0 {
		return "", false
	}
	var cands []string
	if a.dyn {
		// A dynamic word such as ~/.ssh/$KEY is inside ~/.ssh whatever
		// the variable holds.
		if d := dirPrefix(a.prefix); d != "" {
			cands = append(cands, d)
		}
	} else {
		cands = pathCandidates(a.val, sc)
	}
	for _, cand := range cands {
		if !path.IsAbs(cand) && sc.cwdOK && !strings.Contains(cand, "..") && !v.nearDeny(sc.cwd) {
			continue // stays under a cwd that is far from every denied path
		}
		p, ok := sc.abs(cand)
		if !ok {
			continue
		}
		meta := hasMeta(p)
		var comps []string
		for _, d := range v.deny {
			if !meta && !d.meta {
				// The common case, without patterns: a component-wise
				// prefix test on clean paths.
				if p == d.path || strings.HasPrefix(p, d.slash) {
					return p, true
				}
				continue
			}
			if comps == nil {
				comps = splitPath(p)
			}
			if patternWithin(comps, d.comps) {
				return p, true
			}
		}
	}
	return "", false
}

// nearDeny reports whether a relative path without ".." under dir could
// name a denied path: dir is inside a denied path or an ancestor of one.
func (v *Validator) nearDeny(dir string) bool {
	ds := dir + "/"
	if dir == "/" {
		ds = "/"
	}
	for _, d := range v.deny {
		if d.meta || dir == d.path || strings.HasPrefix(dir, d.slash) || strings.HasPrefix(d.path, ds) {
			return true
		}
	}
	return false
}
