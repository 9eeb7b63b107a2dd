// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// Rules match argv after parsing, never the command text (class 19: a
// string prefix such as "git log" also matches "git log; rm -rf x", and
// "git push origin main --force" has its flag last).

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

// matchCommand matches the base name of argv[0]. A path such as
// /usr/bin/git or ./x/git counts by its base name, which is conservative
// for deny rules (class 19).
func (r *rule) matchCommand(base string) bool {
	if r.names[base] {
		return true
	}
	for _, c := range r.commands {
		if ok, _ := path.Match(c, base); ok {
			return true
		}
	}
	return false
}

// globalValueOpts lists, per command, the global options that take a
// separate value and come before the subcommand.
var globalValueOpts = map[string][]string{
	"git": {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"},
}

// argScan is the shape of a wrapper-free argument list (argv[1:]).
type argScan struct {
	args []arg
	end  int   // index of the first "--", or len(args): flags stop there
	pos  []int // indexes of positional arguments
	sub  int   // index into pos of the subcommand (first static positional), or -1
	// dynArg is the dynamic argument a path rule was judging when it
	// matched, for the reason (see dynPathNote); nil otherwise.
	dynArg *arg
}

func scanArgs(cmd string, args []arg) argScan {
	s := argScan{args: args, end: len(args), sub: -1}
	valueOpts := globalValueOpts[cmd]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if i > s.end {
			s.pos = append(s.pos, i)
			if s.sub < 0 && !a.dyn {
				s.sub = len(s.pos) - 1
			}
			continue
		}
		if !a.dyn && a.val == "--" {
			s.end = i
			continue
		}
		if a.isFlag() {
			if s.sub < 0 && !a.dyn && slices.Contains(valueOpts, a.val) {
				i++ // the option's value
			}
			continue
		}
		s.pos = append(s.pos, i)
		if s.sub < 0 && !a.dyn {
			// A dynamic word before the subcommand might expand to
			// nothing or to an option; skipping it is conservative for
			// deny rules ("git $x push -f").
			s.sub = len(s.pos) - 1
		}
	}
	return s
}

// match reports whether the rule matches the wrapper-free argv whose
// command base name is base.
func (r *rule) match(base string, s *argScan, sc *scope) bool {
	if !r.matchCommand(base) {
		return false
	}
	after := s.pos
	if len(r.Sub) > 0 {
		if s.sub < 0 || !slices.Contains(r.Sub, s.args[s.pos[s.sub]].val) {
			return false
		}
		after = s.pos[s.sub+1:]
	}
	if len(r.flags) > 0 && !anyFlag(r.flags, s) {
		return false
	}
	if len(r.notFlags) > 0 && anyFlag(r.notFlags, s) {
		return false
	}
	if len(r.args) > 0 && !r.anyArg(s, after) {
		return false
	}
	if len(r.Paths) > 0 && !r.anyPath(s, after, sc) {
		return false
	}
	return true
}

func anyFlag(specs []flagSpec, s *argScan) bool {
	for _, f := range specs {
		if flagPresent(f, s.args[:s.end]) {
			return true
		}
	}
	return false
}

// isCluster reports whether t is a cluster of short options such as -xfd.
func isCluster(t string) bool {
	if len(t) < 3 || t[0] != '-' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if !isAlnum(t[i]) {
			return false
		}
	}
	return true
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// flagPresent reports whether flag f appears among toks (the tokens before
// "--"). "--x=v" counts as "--x"; a short flag also counts inside a
// cluster; FLAG=GLOB also needs the flag's value to match.
func flagPresent(f flagSpec, toks []arg) bool {
	next := func(i int) (arg, bool) {
		if i+1 < len(toks) {
			return toks[i+1], true
		}
		return arg{}, false
	}
	for i, t := range toks {
		if t.dyn {
			continue
		}
		s := t.val
		if strings.HasPrefix(f.name, "--") {
			n, v, attached := strings.Cut(s, "=")
			if n != f.name {
				continue
			}
			if !f.hasVal {
				return true
			}
			if attached {
				if valueMatch(f.glob, arg{val: v}) {
					return true
				}
			} else if nv, ok := next(i); ok && valueMatch(f.glob, nv) {
				return true
			}
			continue
		}
		if s == f.name {
			if !f.hasVal {
				return true
			}
			if nv, ok := next(i); ok && valueMatch(f.glob, nv) {
				return true
			}
			continue
		}
		if len(f.name) != 2 || len(s) < 3 || s[0] != '-' || s[1] == '-' {
			continue // single-dash words such as -exec match only whole
		}
		letter := f.name[1]
		if !f.hasVal {
			if isCluster(s) && strings.IndexByte(s[1:], letter) >= 0 {
				return true
			}
			continue
		}
		// -cVALUE, -c=VALUE, or a cluster ending in the flag (-xc VALUE).
		for j := 1; j < len(s); j++ {
			if s[j] == letter {
				if rest := s[j+1:]; rest != "" {
					if valueMatch(f.glob, arg{val: strings.TrimPrefix(rest, "=")}) {
						return true
					}
				} else if nv, ok := next(i); ok && valueMatch(f.glob, nv) {
					return true
				}
				break
			}
			if !isAlnum(s[j]) {
				break
			}
		}
	}
	return false
}

// valueMatch matches an option value against a lower-cased glob. A
// dynamic value matches when its known leading text could start a
// matching value (fail closed: git -c "$cfg" status).
func valueMatch(glob string, v arg) bool {
	if !v.dyn {
		ok, _ := path.Match(glob, strings.ToLower(v.val))
		return ok
	}
	return couldMatch(glob, strings.ToLower(v.prefix))
}

// couldMatch reports whether some string that starts with prefix
// matches glob (a path.Match pattern): the glob is run over the prefix,
// and whatever remains of it can match the unknown rest.
func couldMatch(glob, prefix string) bool {
	for prefix != "" {
		if glob == "" {
			return false
		}
		switch glob[0] {
		case '*':
			return true // the star can absorb the rest of the prefix
		case '?':
			_, n := utf8.DecodeRuneInString(prefix)
			glob, prefix = glob[1:], prefix[n:]
		case '[':
			end := strings.IndexByte(glob[1:], ']')
			if end < 0 {
				return true // malformed: fail closed
			}
			class := glob[:end+2]
			r, n := utf8.DecodeRuneInString(prefix)
			if ok, err := path.Match(class, string(r)); !ok && err == nil {
				return false
			}
			glob, prefix = glob[end+2:], prefix[n:]
		case '\\':
			if len(glob) < 2 || glob[1] != prefix[0] {
				return false
			}
			glob, prefix = glob[2:], prefix[1:]
		default:
			if glob[0] != prefix[0] {
				return false
			}
			glob, prefix = glob[1:], prefix[1:]
		}
	}
	return true
}

// anyArg reports whether a static positional argument matches one of the
// rule's globs (case-insensitive). Dynamic arguments do not match: a
// pushed branch held in a variable is not a refspec.
func (r *rule) anyArg(s *argScan, idx []int) bool {
	for _, i := range idx {
		a := s.args[i]
		if a.dyn {
			continue
		}
		v := strings.ToLower(a.val)
		for _, g := range r.args {
			if ok, _ := path.Match(g, v); ok {
				return true
			}
		}
	}
	return false
}

// anyPath reports whether a positional argument names a listed path or a
// directory containing one.
func (r *rule) anyPath(s *argScan, idx []int, sc *scope) bool {
	if len(r.paths) == 0 {
		return false
	}
	for _, i := range idx {
		if r.pathArg(s.args[i], sc) {
			if s.args[i].dyn {
				s.dynArg = &s.args[i]
			}
			return true
		}
	}
	return false
}

// pathArg reports whether one argument names a listed path or a
// directory containing one.
func (r *rule) pathArg(a arg, sc *scope) bool {
	var p string
	if a.dyn {
		// The argument can only name something under the directory
		// of its known leading text, or an entry named as its
		// literal end (varpath.go); with neither ("$X") it can be
		// anything (fail closed).
		if r.tailClears(a) {
			return false
		}
		p = dirPrefix(a.prefix)
		if p == "" {
			// In a script, a path held in a variable is left to the
			// sandbox (scriptLenient).
			return !sc.script
		}
	} else {
		p = trimGlobDir(a.val)
		if p == "" {
			return false
		}
	}
	abs, ok := sc.abs(p)
	if !ok {
		// The cwd is unknown (after cd "$d"): ".", ".." and their
		// children could be any directory at all.
		c := path.Clean(p)
		return !sc.script && (c == "." || c == ".." || strings.HasPrefix(c, "../"))
	}
	comps := splitPath(abs)
	for _, target := range r.paths {
		if covers(comps, target) {
			return true
		}
	}
	return false
}

// trimGlobDir drops a trailing component that is exactly *, .* or *.*:
// removing every entry of a directory is removing the directory.
func trimGlobDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	last := p[i+1:]
	if last != "*" && last != ".*" && last != "*.*" {
		return p
	}
	if i < 0 {
		return "."
	}
	if i == 0 {
		return "/"
	}
	return p[:i]
}
