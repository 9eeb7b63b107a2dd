// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Class 18 for the scripts a command names (scriptfile.go): the
// validator reads a script when it judges the line, before anything on
// the line runs. `echo 'npm publish' > x.sh; bash x.sh` would have it
// read the old x.sh. So the paths the line writes before it runs a
// script are noted (redirect targets, the operands of the usual file
// writers), and a command line that runs a script it wrote, or after a
// write it cannot follow, is refused: the model can write the script in
// one command and run it in the next, where it is read as it is then.

// fileWriters are programs whose operands may be files they write.
var fileWriters = map[string]bool{
	"cp": true, "mv": true, "tee": true, "ln": true, "install": true, "rsync": true, "dd": true,
	"curl": true, "wget": true, "patch": true, "tar": true, "unzip": true, "git": true, "truncate": true,
}

// noteRedirectWrite notes the target of a redirect that writes. Only the
// command line's own writes count: inside a script (lenient) the write
// to a path in a variable is everywhere (> "$tmp"), and would refuse
// every script run after ./configure.
func (c *checker) noteRedirectWrite(r *syntax.Redirect, sc *scope) {
	if c.lenient {
		return
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
	default:
		return
	}
	for _, a := range c.decode(r.Word, sc) {
		c.noteWrite(a, sc)
	}
}

// noteCallWrites notes the operands of a program that writes files (sed
// only with -i).
func (c *checker) noteCallWrites(name string, args []arg, sc *scope) {
	if c.lenient {
		return
	}
	if name == "sed" || name == "gsed" {
		inPlace := false
		for _, a := range args {
			t := a.text()
			inPlace = inPlace || strings.HasPrefix(t, "-i") || strings.HasPrefix(t, "--in-place") ||
				(len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "i"))
		}
		if !inPlace {
			return
		}
	} else if !fileWriters[name] {
		return
	}
	for _, a := range args {
		if !a.isFlag() {
			c.noteWrite(a, sc)
		} else if _, v, ok := strings.Cut(a.text(), "="); ok && v != "" {
			c.noteWrite(arg{val: v, dyn: a.dyn}, sc) // dd of=x.sh, --output=x.sh
		}
	}
}

// noteWrite notes one path the line may write.
func (c *checker) noteWrite(a arg, sc *scope) {
	if a.dyn {
		c.wroteUnknown = true
		return
	}
	p, ok := sc.abs(a.val)
	if !ok {
		c.wroteUnknown = true
		return
	}
	if c.wrote == nil {
		c.wrote = map[string]bool{}
	}
	c.wrote[p] = true
}

// writtenBefore reports whether the line may have written the script at
// abs before it runs it.
func (c *checker) writtenBefore(abs string) bool { return c.wroteUnknown || c.wrote[abs] }
