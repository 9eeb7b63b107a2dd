// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/internal/shellname"
)

// Class 4: eval-like builtins and wrappers. A wrapper's command is itself
// a simple command, checked against every rule (timeout 5 git push -f is
// git push -f); a string that a shell will parse (sh -c, eval, trap, env
// -S, watch, script -c, flock -c, alias, mapfile -C) is a program and is
// parsed and checked recursively. Both are bounded by shell.max_depth.

// call checks one decoded simple command: its name, the rules, and what it
// runs in turn.
func (c *checker) call(argv []arg, node syntax.Node, sc *scope, in stdin) {
	if c.done() || len(argv) == 0 {
		return
	}
	if c.depth > c.v.maxDepth {
		c.depthExceeded(nodePos(node), node)
		return
	}
	a0 := argv[0]
	if a0.dyn || a0.glob {
		// Class 3: $c$t, ${x:-curl}, $(echo curl), /usr/bin/cur?.
		c.deny(idDynCommand, "The validator cannot tell which program runs: the command name is computed at run time.",
			hintDynCommand, a0.pos(nodePos(node)), node)
		return
	}
	if _, r, ok := firstDeceptive(a0.val); ok {
		// A quoted command name with an invisible character ($'g\u200bit').
		c.deny(idDeceptive, fmt.Sprintf("The command name contains %s, which makes it look different from what runs.", describeRune(r)),
			hintDeceptive, a0.pos(nodePos(node)), node)
		return
	}
	c.traceCall(argv, sc)
	name := path.Base(a0.val)
	if a0.val == "" {
		name = ""
	}
	args := argv[1:]
	s := scanArgs(name, args)
	for _, r := range c.v.rules {
		s.dynArg = nil
		if r.match(name, &s, sc) {
			reason, hint := r.Reason, r.Hint
			if s.dynArg != nil && len(r.paths) > 0 {
				reason, hint = dynPathNote(*s.dynArg, reason)
			}
			if c.note != "" {
				reason = c.note + " " + reason
			}
			c.report(r.Decision, r.ID, reason, hint, nodePos(node), node)
			if c.done() {
				return
			}
		}
	}
	c.noteCallWrites(name, args, sc)
	if strings.Contains(a0.val, "/") && !slices.Contains(shells, name) {
		// ./y, tools/x.sh: a shell script run by its path.
		c.namedScript(a0, node, sc, true)
		if c.done() {
			return
		}
	}
	c.builtin(name, args, node, sc, in)
}

// inner checks the command a wrapper runs, one level deeper.
func (c *checker) inner(argv []arg, node syntax.Node, sc *scope, in stdin) {
	if len(argv) == 0 {
		return
	}
	c.depth++
	c.call(argv, node, sc, in)
	c.depth--
}

// script checks a string that a shell parses as a program.
func (c *checker) script(a arg, node syntax.Node, sc *scope, in stdin, what string) {
	if a.dyn {
		c.deny(idDynScript, fmt.Sprintf("The validator cannot see the script that %s runs: its text is computed at run time.", what),
			hintDynScript, a.pos(nodePos(node)), node)
		return
	}
	c.program(a.val, a.pos(nodePos(node)), sc, in, true)
}

// joined returns the arguments joined with spaces as one script (eval,
// watch); a dynamic argument makes the whole script dynamic.
func joined(args []arg) arg {
	vals := make([]string, len(args))
	for i, a := range args {
		if a.dyn {
			return arg{dyn: true, word: args[0].word}
		}
		vals[i] = a.val
	}
	return arg{val: strings.Join(vals, " "), word: args[0].word}
}

// shells are the programs whose -c operand is parsed as Bash: the one
// list of shell names (internal/shellname). zsh and the ksh family
// differ in details; parsing them as Bash is the documented
// approximation (pitfall 3), and a parse error fails closed.
var shells = shellname.Names

// prefixWrapper describes a command that runs another one after its own
// options and a fixed number of operands (timeout DURATION cmd...).
type prefixWrapper struct {
	opts     optSpec
	operands int // operands before the command
}

// prefixWrappers lists the wrappers of that shape (GNU coreutils,
// util-linux, sudo and a few common tools). Option specs list the options
// that take a value; unknown options are taken to take none, which at
// worst makes an option's value look like the command (a rule then sees
// the wrong name: this is the intent layer, the sandbox still contains the
// command).
var prefixWrappers = map[string]prefixWrapper{
	"timeout":          {optSpec{vals: "sk", longVals: []string{"--signal", "--kill-after"}}, 1},
	"nice":             {optSpec{vals: "n", longVals: []string{"--adjustment"}}, 0},
	"nohup":            {optSpec{}, 0},
	"setsid":           {optSpec{}, 0},
	"stdbuf":           {optSpec{vals: "ioe", longVals: []string{"--input", "--output", "--error"}}, 0},
	"time":             {optSpec{vals: "fo", longVals: []string{"--format", "--output"}}, 0},
	"ionice":           {optSpec{vals: "cnpPu", longVals: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}}, 0},
	"chrt":             {optSpec{vals: "T", longVals: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}}, 1},
	"taskset":          {optSpec{}, 1},
	"builtin":          {optSpec{}, 0},
	"exec":             {optSpec{vals: "a"}, 0},
	"doas":             {optSpec{vals: "uC"}, 0},
	"pkexec":           {optSpec{longVals: []string{"--user"}}, 0},
	"caffeinate":       {optSpec{vals: "tw"}, 0},
	"unbuffer":         {optSpec{}, 0},
	"catchsegv":        {optSpec{}, 0},
	"chronic":          {optSpec{}, 0},
	"fakeroot":         {optSpec{vals: "lsi", longVals: []string{"--lib", "--faked"}}, 0},
	"faketime":         {optSpec{vals: "f"}, 1},
	"proxychains":      {optSpec{vals: "f"}, 0},
	"proxychains4":     {optSpec{vals: "f"}, 0},
	"torsocks":         {optSpec{vals: "uapP", longVals: []string{"--user", "--pass", "--address", "--port"}}, 0},
	"strace":           {optSpec{vals: "abeEIoOpPsSUX", longVals: []string{"--output", "--attach", "--user", "--trace", "--signal", "--status"}}, 0},
	"ltrace":           {optSpec{vals: "aAeEDFlLnopsSuwx", longVals: []string{"--output", "--library"}}, 0},
	"valgrind":         {optSpec{}, 0},
	"unshare":          {optSpec{vals: "RwSG", longVals: []string{"--root", "--wd", "--setuid", "--setgid", "--propagation", "--setgroups"}}, 0},
	"nsenter":          {optSpec{vals: "tSGRw", longVals: []string{"--target", "--setuid", "--setgid", "--root", "--wd"}}, 0},
	"chroot":           {optSpec{longVals: []string{"--userspec", "--groups"}}, 1},
	"firejail":         {optSpec{}, 0},
	"setpriv":          {optSpec{}, 0},
	"dbus-run-session": {optSpec{longVals: []string{"--config-file", "--dbus-daemon"}}, 0},
}

// builtin handles the commands that run, parse or assign something.
func (c *checker) builtin(name string, args []arg, node syntax.Node, sc *scope, in stdin) {
	if c.done() {
		return
	}
	if c.pseudoAssign(name, args, node, sc) {
		return
	}
	if w, ok := prefixWrappers[name]; ok {
		_, i := parseOpts(args, w.opts)
		i = min(i+w.operands, len(args))
		c.inner(args[i:], node, sc, in)
		return
	}
	switch name {
	case "env":
		c.env(args, node, sc, in)
	case "command":
		c.commandBuiltin(args, node, sc, in)
	case "xargs":
		c.xargs(args, node, sc)
	case "flock":
		c.flock(args, node, sc, in)
	case "sudo":
		_, i := parseOpts(args, sudoOpts)
		i = c.envAssigns(args, i, node)
		c.inner(args[i:], node, sc, in)
	case "git":
		c.git(args, node, sc)
	case "compgen", "complete":
		c.compgen(name, args, node, sc)
	case "watch":
		c.watch(args, node, sc)
	case "script":
		c.scriptCmd(args, node, sc)
	case "find":
		c.find(args, node, sc)
	case "sed", "gsed":
		c.sed(args, node, sc)
	case "busybox":
		if len(args) > 0 && !args[0].isFlag() {
			c.inner(args, node, sc, in)
		}
	case "eval":
		c.eval(args, node, sc, in)
	case "trap":
		c.trap(args, node, sc)
	case "alias":
		c.alias(args, node, sc)
	case "source", ".":
		// The file is judged when it can be read (scriptfile.go), in a
		// copy of the scope: what it does to the cwd is not known.
		if len(args) > 0 && (args[0].dyn || args[0].val != "--") {
			cp := *sc
			c.fileScript(args[0], node, &cp, in, name)
		} else if len(args) > 1 {
			cp := *sc
			c.fileScript(args[1], node, &cp, in, name)
		}
		sc.cwdOK = false
	case "cd", "pushd", "popd":
		c.cd(name, args, sc)
	default:
		if slices.Contains(shells, name) {
			c.shell(args, node, sc, in)
		}
	}
}
