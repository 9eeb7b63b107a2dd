// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Classes 6 and 7: variables such as LD_PRELOAD, BASH_ENV, PS4 or
// GIT_SSH_COMMAND make programs run other code. Their assignment is
// refused however it is written: NAME=v, declare NAME=v, env NAME=v, and
// the pseudo-assignments that have no Assign node (read, printf -v,
// mapfile, getopts, declare -n, ${NAME:=v}, for NAME in, (( NAME = 1 ))).

// envName refuses an assignment to a name listed in shell.deny_env.
func (c *checker) envName(name string, pos syntax.Pos, node syntax.Node) {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimSuffix(name, "+") // NAME+=v
	for _, g := range c.v.denyEnv {
		if ok, _ := path.Match(g, name); ok {
			c.deny(idEnvHook, fmt.Sprintf("Setting %s makes programs run other code (it is listed in shell.deny_env).", name),
				hintEnvHook, pos, node)
			return
		}
	}
}

// setVar records what an assignment does to the scope. val is nil when
// the value is unknown.
func (c *checker) setVar(name string, val *arg, sc *scope) {
	switch name {
	case "HOME":
		// ~ and $HOME now mean something else (HOME=/; rm -rf ~).
		if val != nil && !val.dyn && path.IsAbs(val.val) {
			sc.home, sc.homeOK = path.Clean(val.val), true
		} else {
			sc.homeOK = false
		}
	case "TMPDIR":
		// rm -rf "$TMPDIR" after TMPDIR=/ is not the sandbox's /tmp.
		if val != nil && !val.dyn && path.IsAbs(val.val) {
			sc.tmp, sc.tmpOK = path.Clean(val.val), true
		} else {
			sc.tmpOK = false
		}
	case "PWD":
		sc.cwdOK = false
	case "CDPATH":
		sc.cdpath = true
	}
}

// assign checks an Assign node. persistent says it changes the shell's own
// variables (a bare assignment or a declaration) rather than the
// environment of a single command.
func (c *checker) assign(a *syntax.Assign, sc *scope, persistent bool, node syntax.Node) {
	if a.Index != nil {
		c.arithm(a.Index, sc)
	}
	if a.Value != nil {
		c.word(a.Value, sc, false)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			c.arithm(e.Index, sc)
			c.word(e.Value, sc, false)
		}
	}
	if a.Name == nil || a.Naked || c.done() {
		return // "declare NAME" declares without setting a value
	}
	c.envName(a.Name.Value, a.Name.Pos(), node)
	if persistent {
		var val *arg
		if a.Value != nil && a.Array == nil {
			if s, ok := c.decodeOne(a.Value, sc); ok {
				val = &arg{val: s}
			}
		} else if a.Value == nil && a.Array == nil {
			val = &arg{val: ""}
		}
		c.setVar(a.Name.Value, val, sc)
	}
}

// declClause checks declare, local, export, readonly, typeset and
// nameref, which never reach a call handler (pitfall 4).
func (c *checker) declClause(d *syntax.DeclClause, sc *scope) {
	variant := d.Variant.Value
	nameref := variant == "nameref"
	for _, a := range d.Args {
		if c.done() {
			return
		}
		if a.Naked && a.Name == nil {
			// An option, or a word evaluated at run time that may expand
			// to NAME=value (declare "$x", export $(cat f)).
			if a.Value == nil {
				continue
			}
			c.word(a.Value, sc, false)
			args := c.decode(a.Value, sc)
			c.declArgs(variant, args, &nameref, a.Value.Pos(), d, sc)
			continue
		}
		c.assign(a, sc, true, d)
		if nameref && a.Name != nil && a.Value != nil {
			// declare -n r=PATH: assigning r assigns PATH.
			if t, ok := c.decodeOne(a.Value, sc); ok {
				c.envName(t, a.Value.Pos(), d)
				c.setVar(t, nil, sc)
			} else {
				c.dynAssign(a.Value.Pos(), d)
			}
		}
	}
}

// declArg checks one decoded argument of a declaration builtin.
func (c *checker) declArg(variant, s string, nameref *bool, pos syntax.Pos, node syntax.Node, sc *scope) {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		// -n makes a name reference, except for export (-n un-exports)
		// and readonly.
		if s[0] == '-' && strings.ContainsRune(s[1:], 'n') && variant != "export" && variant != "readonly" {
			*nameref = true
		}
		return
	}
	name, val, has := strings.Cut(s, "=")
	c.subscript(name, pos, sc)
	if !has {
		return
	}
	c.envName(name, pos, node)
	if *nameref {
		c.envName(val, pos, node)
		c.setVar(val, nil, sc)
	}
	c.setVar(strings.TrimSuffix(name, "+"), &arg{val: val}, sc)
}

// declArgs checks decoded arguments of a declaration builtin. A dynamic
// argument whose known text already holds NAME= assigns NAME; any other
// dynamic argument may expand to any NAME=value or option (declare "$x",
// export $(cat f)).
func (c *checker) declArgs(variant string, args []arg, nameref *bool, pos syntax.Pos, node syntax.Node, sc *scope) {
	for _, a := range args {
		p := a.pos(pos)
		if !a.dyn {
			c.declArg(variant, a.val, nameref, p, node, sc)
			continue
		}
		name, _, ok := strings.Cut(a.prefix, "=")
		if !ok || !syntax.ValidName(strings.TrimSuffix(name, "+")) || *nameref {
			c.dynAssign(p, node)
			return
		}
		c.envName(name, p, node)
		c.setVar(strings.TrimSuffix(name, "+"), nil, sc)
	}
}

// declArgv checks a declaration builtin reached as an ordinary command
// (builtin export X=1, command declare ...).
func (c *checker) declArgv(variant string, args []arg, node syntax.Node, sc *scope) {
	nameref := variant == "nameref"
	c.declArgs(variant, args, &nameref, nodePos(node), node, sc)
}

func (c *checker) dynAssign(pos syntax.Pos, node syntax.Node) {
	c.deny(idDynAssign, "The validator cannot tell which variable this sets: the name is computed at run time and could be one that makes programs run other code.",
		hintDynAssign, pos, node)
}

// pseudo checks the target name of read, printf -v, mapfile or getopts.
func (c *checker) pseudo(a arg, node syntax.Node, sc *scope) {
	pos := a.pos(nodePos(node))
	if a.dyn {
		c.dynAssign(pos, node)
		return
	}
	c.envName(a.val, pos, node)
	c.subscript(a.val, pos, sc)
	c.setVar(a.val, nil, sc)
}

// pseudoAssign handles the builtins that assign variables without an
// Assign node. It reports whether name was one of them.
func (c *checker) pseudoAssign(name string, args []arg, node syntax.Node, sc *scope) bool {
	switch name {
	case "read":
		opts, i := parseOpts(args, optSpec{vals: "adinNptu"})
		for _, o := range opts {
			if o.name == "-a" && o.hasVal {
				c.pseudo(o.val, node, sc)
			}
		}
		if i == len(args) {
			return true // reads into REPLY
		}
		for _, a := range args[i:] {
			c.pseudo(a, node, sc)
		}
	case "printf":
		opts, _ := parseOpts(args, optSpec{vals: "v"})
		for _, o := range opts {
			if o.name == "-v" && o.hasVal {
				c.pseudo(o.val, node, sc)
			}
		}
	case "mapfile", "readarray":
		opts, i := parseOpts(args, optSpec{vals: "dnOsuCc"})
		for _, o := range opts {
			if o.name == "-C" && o.hasVal {
				// The callback is evaluated as a command (class 4).
				c.script(o.val, node, sc, stdin{}, "mapfile -C")
			}
		}
		if i < len(args) {
			c.pseudo(args[i], node, sc)
		}
	case "getopts":
		if len(args) >= 2 {
			c.pseudo(args[1], node, sc)
		}
	case "unset":
		for _, a := range args {
			if !a.dyn {
				c.subscript(a.val, a.pos(nodePos(node)), sc)
				if a.val == "HOME" || a.val == "TMPDIR" {
					c.setVar(a.val, nil, sc) // now empty, not the known value
				}
			}
		}
	case "test", "[":
		for i, a := range args {
			if !a.dyn && a.val == "-v" && i+1 < len(args) && !args[i+1].dyn {
				c.subscript(args[i+1].val, args[i+1].pos(nodePos(node)), sc)
			}
		}
	case "let":
		for _, a := range args {
			if a.dyn {
				continue
			}
			if e, err := c.v.parseArithm(a.val); err == nil {
				c.withAnchor(a.pos(nodePos(node)), func() { c.arithm(e, sc) })
			}
		}
	case "declare", "typeset", "local", "export", "readonly", "nameref":
		c.declArgv(name, args, node, sc)
	default:
		return false
	}
	return true
}

// withAnchor runs f with findings reported at pos, unless an outer anchor
// is already set.
func (c *checker) withAnchor(pos syntax.Pos, f func()) {
	saved, savedInner := c.anchor, c.anchored
	if !c.anchored {
		c.anchor, c.anchored = pos, true
	}
	f()
	c.anchor, c.anchored = saved, savedInner
}
