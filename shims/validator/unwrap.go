// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
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
			c.report(r.Decision, r.ID, reason, hint, nodePos(node), node)
			if c.done() {
				return
			}
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

// shells are the programs whose -c operand is parsed as Bash. zsh and the
// ksh family differ in details; parsing them as Bash is the documented
// approximation (pitfall 3), and a parse error fails closed.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "rbash", "ksh93", "lksh", "oksh", "pdksh", "posh", "yash"}

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
		opts, i := parseOpts(args, optSpec{})
		for _, o := range opts {
			if o.name == "-v" || o.name == "-V" {
				return // a lookup: nothing runs
			}
		}
		c.inner(args[i:], node, sc, in)
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
		// -C COMMAND runs a command to generate completions.
		opts, _ := parseOpts(args, optSpec{vals: "oAGWFCXPS"})
		for _, o := range opts {
			if o.name == "-C" && o.hasVal {
				cp := *sc
				c.script(o.val, node, &cp, stdin{}, name+" -C")
			}
		}
	case "watch":
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
	case "script":
		c.scriptCmd(args, node, sc)
	case "find":
		c.find(args, node, sc)
	case "busybox":
		if len(args) > 0 && !args[0].isFlag() {
			c.inner(args, node, sc, in)
		}
	case "eval":
		if len(args) == 0 && in.xargs {
			c.script(arg{dyn: true}, node, sc, in, "eval")
		}
		if len(args) > 0 {
			// eval runs in the current shell: its cd and assignments count.
			c.script(joined(args), node, sc, in, "eval")
		}
	case "trap":
		c.trap(args, node, sc)
	case "alias":
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
	case "source", ".":
		// The file is confined by the sandbox; what it does to the cwd
		// is not known.
		sc.cwdOK = false
	case "cd", "pushd", "popd":
		c.cd(name, args, sc)
	default:
		if slices.Contains(shells, name) {
			c.shell(args, node, sc, in)
		}
	}
}

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

// shell handles sh, bash and friends: -c STRING is a program; so is a
// script read from a heredoc or here-string; a script read from a pipe
// cannot be seen; a script file is confined by the sandbox.
func (c *checker) shell(args []arg, node syntax.Node, sc *scope, in stdin) {
	cmode, smode, maybe := false, false, false
	i := 0
options:
	for i < len(args) {
		a := args[i]
		if a.dyn {
			if t := a.prefix; strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
				maybe = true // an option computed at run time might be -c
				i++
				continue
			}
			break
		}
		s := a.val
		switch {
		case s == "--" || s == "-":
			i++
			break options
		case len(s) < 2 || (s[0] != '-' && s[0] != '+'):
			break options
		case strings.HasPrefix(s, "--"):
			i++
			if s == "--rcfile" || s == "--init-file" {
				i++
			}
			continue
		}
		i++
		for _, ch := range s[1:] {
			switch ch {
			case 'c':
				cmode = cmode || s[0] == '-'
			case 's':
				smode = smode || s[0] == '-'
			case 'o', 'O':
				i++ // -o OPTION
			}
		}
	}
	cp := *sc // a new shell process: nothing it does comes back
	cp.cdpath = false
	switch {
	case cmode || maybe:
		switch {
		case i < len(args):
			c.script(args[i], node, &cp, stdin{}, "this shell")
		case in.xargs:
			// xargs sh -c: the script is read from xargs' input.
			c.script(arg{dyn: true}, node, &cp, stdin{}, "this shell")
		}
	case !smode && i < len(args):
		// bash script.sh: the file is confined by the sandbox (class 18).
	default:
		c.stdinScript(node, &cp, in)
	}
}

// stdinScript checks the script a shell reads from its standard input.
func (c *checker) stdinScript(node syntax.Node, sc *scope, in stdin) {
	r := in.redir
	switch {
	case r != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc):
		if r.Hdoc == nil {
			return // an empty body (the fuzzer found the nil Hdoc)
		}
		if in.quoted {
			var b strings.Builder
			for _, p := range r.Hdoc.Parts {
				if l, ok := p.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
			c.program(b.String(), r.Hdoc.Pos(), sc, stdin{}, true)
			return
		}
		c.script(c.heredocBody(r.Hdoc, sc), node, sc, stdin{}, "this shell (from its heredoc)")
	case r != nil && r.Op == syntax.WordHdoc:
		a := arg{dyn: true, word: r.Word}
		if s, ok := c.decodeOne(r.Word, sc); ok {
			a = arg{val: s, word: r.Word}
		}
		c.script(a, node, sc, stdin{}, "this shell (from its here-string)")
	case r != nil:
		// bash < script.sh: a file, confined by the sandbox.
	case in.pipe:
		c.deny(idDynScript, "The validator cannot see the script this shell reads from a pipe.",
			"Run the commands directly, or pass the script literally with sh -c '...'.", nodePos(node), node)
	}
}

// heredocBody decodes an unquoted heredoc body, which the outer shell
// expands before the inner shell parses it.
func (c *checker) heredocBody(w *syntax.Word, sc *scope) arg {
	if w == nil {
		return arg{val: ""}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
		case *syntax.ParamExp:
			if !knownParam(p, sc) {
				return arg{dyn: true, word: w}
			}
		default:
			return arg{dyn: true, word: w}
		}
	}
	s, err := expandDocument(w, sc)
	if err != nil {
		return arg{dyn: true, word: w}
	}
	return arg{val: s, word: w}
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

// find checks every -exec, -execdir, -ok and -okdir command, up to ";" or
// "{} +". The {} placeholder is an ordinary literal.
func (c *checker) find(args []arg, node syntax.Node, sc *scope) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dyn || (a.val != "-exec" && a.val != "-execdir" && a.val != "-ok" && a.val != "-okdir") {
			continue
		}
		j := i + 1
		for ; j < len(args); j++ {
			t := args[j]
			if t.dyn {
				continue
			}
			if t.val == ";" || (t.val == "+" && j > i+1 && !args[j-1].dyn && args[j-1].val == "{}") {
				break
			}
		}
		c.inner(args[i+1:j], node, sc, stdin{})
		if c.done() {
			return
		}
		i = j
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

// optSpec describes the options of a command, getopt style.
type optSpec struct {
	vals     string   // short options that take a value (attached or next)
	optVals  string   // short options whose value can only be attached (-e[EOF])
	longVals []string // long options that take a value (--opt VALUE or --opt=VALUE)
}

// opt is one parsed option.
type opt struct {
	name   string // "-C" or "--chdir"
	val    arg
	hasVal bool
}

// parseOpts parses the options in front of args and returns them with the
// index of the first operand. It stops at "--" (skipped), "-" and the first
// operand, as getopt with "+" does. Unknown options take no value. A
// dynamic word that starts with "-" counts as an option without a value.
func parseOpts(args []arg, spec optSpec) ([]opt, int) {
	var opts []opt
	i := 0
	for i < len(args) {
		a := args[i]
		if a.dyn {
			if strings.HasPrefix(a.prefix, "-") {
				opts = append(opts, opt{name: a.prefix})
				i++
				continue
			}
			break
		}
		s := a.val
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' {
			break
		}
		i++
		if strings.HasPrefix(s, "--") {
			name, val, has := strings.Cut(s, "=")
			switch {
			case has:
				opts = append(opts, opt{name: name, val: arg{val: val, word: a.word}, hasVal: true})
			case slices.Contains(spec.longVals, name) && i < len(args):
				opts = append(opts, opt{name: name, val: args[i], hasVal: true})
				i++
			default:
				opts = append(opts, opt{name: name})
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			ch := s[j]
			name := "-" + string(ch)
			if strings.IndexByte(spec.vals, ch) >= 0 {
				switch {
				case j+1 < len(s):
					opts = append(opts, opt{name: name, val: arg{val: s[j+1:], word: a.word}, hasVal: true})
				case i < len(args):
					opts = append(opts, opt{name: name, val: args[i], hasVal: true})
					i++
				default:
					opts = append(opts, opt{name: name})
				}
				break
			}
			if strings.IndexByte(spec.optVals, ch) >= 0 {
				opts = append(opts, opt{name: name, val: arg{val: s[j+1:], word: a.word}, hasVal: j+1 < len(s)})
				break
			}
			opts = append(opts, opt{name: name})
		}
	}
	return opts, i
}
