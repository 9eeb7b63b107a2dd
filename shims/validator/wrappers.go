// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// env unwraps env [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...].
func (c *checker) env(args []arg, node syntax.Node, sc *scope, in stdin) {
	opts, i := parseOpts(args, envOpts)
	inner := *sc
	var split *arg
	for _, o := range opts {
		switch o.name {
		case "-C", "--chdir":
			if o.val.dyn {
				inner.cwdOK = false
			} else if p, ok := inner.abs(o.val.val); ok {
				inner.cwd, inner.cwdOK = p, true
			}
		case "-S", "--split-string":
			v := o.val
			split = &v
		}
	}
	for i < len(args) && !args[i].dyn && args[i].val == "-" {
		i++ // "-" is -i
	}
	i = c.envAssigns(args, i, node)
	if split != nil {
		// env -S 'git push -f' splits the string into arguments that come
		// before the rest: check it as a command line.
		if split.dyn {
			c.script(*split, node, &inner, in, "env -S")
			return
		}
		src := split.val
		for _, a := range args[i:] {
			if a.dyn {
				src += ` "$__lite_sandbox_dynamic"`
				continue
			}
			q, err := syntax.Quote(a.val, syntax.LangBash)
			if err != nil {
				q = `"$__lite_sandbox_dynamic"`
			}
			src += " " + q
		}
		c.script(arg{val: src, word: split.word}, node, &inner, in, "env -S")
		return
	}
	c.inner(args[i:], node, &inner, in)
}

// envAssigns checks the NAME=VALUE operands that env and sudo put in the
// command's environment, and returns the index of the command.
func (c *checker) envAssigns(args []arg, i int, node syntax.Node) int {
	for ; i < len(args); i++ {
		a := args[i]
		name, _, ok := strings.Cut(a.text(), "=")
		if !ok || !syntax.ValidName(name) {
			return i
		}
		c.envName(name, a.pos(nodePos(node)), node)
	}
	return i
}

// xargs unwraps xargs [OPTION]... [COMMAND [ARG]...]. The arguments it
// reads are not known; the command is judged on what is written (like
// find -exec's {}), except that an argument holding the -I replacement
// string is dynamic (xargs -I{} sh -c '{}' runs its input as a script).
func (c *checker) xargs(args []arg, node syntax.Node, sc *scope) {
	opts, i := parseOpts(args, xargsOpts)
	repl := ""
	for _, o := range opts {
		switch {
		case o.name == "-I" && o.hasVal && !o.val.dyn:
			repl = o.val.val
		case o.name == "-i" || o.name == "--replace":
			repl = "{}"
			if o.hasVal && !o.val.dyn && o.val.val != "" {
				repl = o.val.val
			}
		}
	}
	in := stdin{xargs: true}
	if i == len(args) {
		c.inner([]arg{{val: "echo"}}, node, sc, in)
		return
	}
	cmd := slices.Clone(args[i:])
	if repl != "" {
		for k, a := range cmd {
			if !a.dyn {
				if before, _, ok := strings.Cut(a.val, repl); ok {
					cmd[k] = arg{dyn: true, prefix: before, word: a.word}
				}
			}
		}
	}
	c.inner(cmd, node, sc, in)
}

// Option specs of the wrappers handled by hand.
var (
	envOpts    = optSpec{vals: "uCS", longVals: []string{"--unset", "--chdir", "--split-string"}}
	xargsOpts  = optSpec{vals: "adEILnPs", optVals: "eil", longVals: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}}
	flockOpts  = optSpec{vals: "wEc", longVals: []string{"--timeout", "--wait", "--conflict-exit-code", "--command"}}
	sudoOpts   = optSpec{vals: "CDghpRrTtUu", longVals: []string{"--close-from", "--chdir", "--group", "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user", "--user"}}
	scriptOpts = optSpec{vals: "cEBIOTmo", optVals: "t", longVals: []string{"--command", "--echo", "--log-io", "--log-in", "--log-out", "--log-timing", "--logging-format", "--output-limit"}}
)

// git handles the git subcommands that run other commands: submodule
// foreach runs a shell command in every submodule, bisect run runs a
// command for every step. (rebase --exec and -c options are rules.)
func (c *checker) git(args []arg, node syntax.Node, sc *scope) {
	s := scanArgs("git", args)
	if s.sub < 0 {
		return
	}
	rest := args[s.pos[s.sub]+1:]
	switch args[s.pos[s.sub]].val {
	case "submodule":
		_, i := parseOpts(rest, optSpec{})
		if i >= len(rest) || rest[i].dyn || rest[i].val != "foreach" {
			return
		}
		_, j := parseOpts(rest[i+1:], optSpec{})
		if cmd := rest[i+1+j:]; len(cmd) > 0 {
			cp := *sc
			c.script(joined(cmd), node, &cp, stdin{}, "git submodule foreach")
		}
	case "bisect":
		if len(rest) > 0 && !rest[0].dyn && rest[0].val == "run" {
			c.inner(rest[1:], node, sc, stdin{})
		}
	case "worktree":
		c.gitWorktree(rest, gitDir(args, s.pos[s.sub], sc), node)
	}
}

// flock unwraps flock [OPTION]... FILE|DIR (COMMAND [ARG]... | -c STRING).
func (c *checker) flock(args []arg, node syntax.Node, sc *scope, in stdin) {
	opts, i := parseOpts(args, flockOpts)
	for _, o := range opts {
		if (o.name == "-c" || o.name == "--command") && o.hasVal {
			cp := *sc
			c.script(o.val, node, &cp, in, "flock -c")
			return
		}
	}
	if i >= len(args) {
		return
	}
	i++ // FILE, DIR or FD
	if i < len(args) && !args[i].dyn {
		if v, ok := strings.CutPrefix(args[i].val, "--command="); ok {
			cp := *sc
			c.script(arg{val: v, word: args[i].word}, node, &cp, in, "flock -c")
			return
		}
		if args[i].val == "-c" || args[i].val == "--command" {
			if i+1 < len(args) {
				cp := *sc
				c.script(args[i+1], node, &cp, in, "flock -c")
			}
			return
		}
	}
	c.inner(args[i:], node, sc, in)
}

// scriptCmd handles script(1): -c STRING is run by a shell. Options may
// follow the log file name.
func (c *checker) scriptCmd(args []arg, node syntax.Node, sc *scope) {
	for i := 0; i < len(args); {
		opts, n := parseOpts(args[i:], scriptOpts)
		for _, o := range opts {
			if (o.name == "-c" || o.name == "--command") && o.hasVal {
				cp := *sc
				c.script(o.val, node, &cp, stdin{}, "script -c")
			}
		}
		i += n + 1 // skip one operand (the typescript file)
	}
}

// trap checks the action string of trap [-lp] [[ACTION] SIGNAL...].
func (c *checker) trap(args []arg, node syntax.Node, sc *scope) {
	_, i := parseOpts(args, optSpec{})
	rest := args[i:]
	if len(rest) < 2 {
		return // trap SIG resets; trap -p lists
	}
	a := rest[0]
	if !a.dyn && (a.val == "" || a.val == "-") {
		return
	}
	cp := *sc
	c.script(a, node, &cp, stdin{}, "trap")
}

// cd tracks the current directory (class 9). Anything it cannot follow
// makes the directory unknown.
func (c *checker) cd(name string, args []arg, sc *scope) {
	if name == "popd" {
		sc.cwdOK = false
		return
	}
	_, i := parseOpts(args, optSpec{})
	if i >= len(args) {
		if name == "cd" && sc.homeOK {
			sc.cwd, sc.cwdOK = sc.home, true
		} else {
			sc.cwdOK = false
		}
		return
	}
	a := args[i]
	if a.dyn || a.val == "-" || strings.HasPrefix(a.val, "+") || a.val == "" {
		sc.cwdOK = false
		return
	}
	d := a.val
	if path.IsAbs(d) {
		sc.cwd, sc.cwdOK = path.Clean(d), true
		return
	}
	rel := d == "." || d == ".." || strings.HasPrefix(d, "./") || strings.HasPrefix(d, "../")
	if !sc.cwdOK || (!rel && sc.cdpath) {
		sc.cwdOK = false
		return
	}
	sc.cwd = path.Join(sc.cwd, d)
}

// commandBuiltin unwraps command [-pVv] COMMAND [ARG]...; -v and -V only
// look the name up.
func (c *checker) commandBuiltin(args []arg, node syntax.Node, sc *scope, in stdin) {
	opts, i := parseOpts(args, optSpec{})
	for _, o := range opts {
		if o.name == "-v" || o.name == "-V" {
			return // a lookup: nothing runs
		}
	}
	c.inner(args[i:], node, sc, in)
}

// compgen checks compgen and complete: -C COMMAND runs a command to
// generate completions.
func (c *checker) compgen(name string, args []arg, node syntax.Node, sc *scope) {
	opts, _ := parseOpts(args, optSpec{vals: "oAGWFCXPS"})
	for _, o := range opts {
		if o.name == "-C" && o.hasVal {
			cp := *sc
			c.script(o.val, node, &cp, stdin{}, name+" -C")
		}
	}
}

// watch checks watch [OPTION]... COMMAND: the operands joined are a
// script for sh -c, or with -x a command.
func (c *checker) watch(args []arg, node syntax.Node, sc *scope) {
	opts, i := parseOpts(args, optSpec{vals: "nqs", longVals: []string{"--interval", "--equexit", "--shotsfile"}})
	if i == len(args) {
		return
	}
	for _, o := range opts {
		if o.name == "-x" || o.name == "--exec" {
			c.inner(args[i:], node, sc, stdin{})
			return
		}
	}
	cp := *sc
	c.script(joined(args[i:]), node, &cp, stdin{}, "watch")
}

// eval checks the script eval joins from its arguments.
func (c *checker) eval(args []arg, node syntax.Node, sc *scope, in stdin) {
	if len(args) == 0 && in.xargs {
		c.script(arg{dyn: true}, node, sc, in, "eval")
	}
	if len(args) > 0 {
		// eval runs in the current shell: its cd and assignments count.
		c.script(joined(args), node, sc, in, "eval")
	}
}

// alias checks the value of every NAME=VALUE: it is parsed when the
// alias is used.
func (c *checker) alias(args []arg, node syntax.Node, sc *scope) {
	for _, a := range args {
		if a.dyn {
			c.script(a, node, sc, stdin{}, "alias")
			continue
		}
		if _, val, ok := strings.Cut(a.val, "="); ok && val != "" {
			cp := *sc
			c.script(arg{val: val, word: a.word}, node, &cp, stdin{}, "alias")
		}
	}
}
