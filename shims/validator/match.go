// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"path"
	"slices"
	"strings"
)

// Rules match argv after parsing, never the command text (class 19: a
// string prefix such as "git log" also matches "git log; rm -rf x", and
// "git push origin main --force" has its flag last).

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
// separate value and come before the subcommand, so that the value is
// not taken for it (class 19: "kubectl -n prod delete pod x" is a
// delete). Only options that really take a value belong here: a boolean
// one would hide the subcommand behind it.
var globalValueOpts = map[string][]string{
	"git": {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"},
	"kubectl": {"-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s", "--server",
		"--token", "--as", "--as-group", "--as-uid", "--cache-dir", "--certificate-authority",
		"--client-certificate", "--client-key", "--request-timeout", "--tls-server-name", "-v", "--v"},
	"pulumi":     {"-C", "--cwd", "--color", "-v", "--verbose", "--tracing", "--profiling"},
	"terragrunt": {"--terragrunt-working-dir", "--terragrunt-config", "--working-dir", "--config"},
	"npm": {"-C", "--prefix", "-w", "--workspace", "--registry", "--userconfig", "--globalconfig",
		"--cache", "--loglevel", "--tag", "--otp", "--access"},
	"pnpm":   {"-C", "--dir", "-F", "--filter", "--filter-prod", "--loglevel", "--reporter"},
	"yarn":   {"--cwd", "--cache-folder", "--modules-folder", "--global-folder", "--use-yarnrc", "--mutex", "--network-timeout"},
	"bun":    {"--cwd"},
	"cargo":  {"-C", "--config", "-Z", "--color"},
	"poetry": {"-C", "--directory", "-P", "--project"},
	"uv":     {"--directory", "--project", "--config-file", "--cache-dir", "--color"},
	"hatch":  {"-e", "--env", "-p", "--project", "--data-dir", "--cache-dir", "--config"},
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

// anyArg reports whether a static positional argument matches one of the
// rule's globs (case-insensitive). Dynamic arguments do not match: a
// pushed branch held in a variable is not a refspec.
func (r *rule) anyArg(s *argScan, idx []int) bool {
	for _, i := range idx {
		a := s.args[i]
		if a.dyn {
			continue
		}
		// A '*' of an argument glob also spans '/': a refspec such as
		// :refs/heads/old is one argument, not a path.
		v := strings.ReplaceAll(strings.ToLower(a.val), "/", "\x00")
		for _, g := range r.args {
			if ok, _ := path.Match(strings.ReplaceAll(g, "/", "\x00"), v); ok {
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
