// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ScriptReader reads a script file a command names, by its absolute
// path: its text, or false when it is not to be read (outside the
// workspace, not a regular file, too large). The shim's reader is
// shims/config's workspaceScripts.
type ScriptReader func(abs string) (string, bool)

// Bounds on the script files one command line makes the validator read
// (issue #26, finding 5): files, nesting (a script that runs a script),
// and bytes in all. Past them a script is not read, and the sandbox
// confines it as before (docs/validator.md §4).
const (
	maxScriptFiles = 16
	maxScriptNest  = 3
	maxScriptBytes = 4 << 20
)

// Class 4 (issue #26, finding 5): the policy's rules reach the scripts
// a command names in the workspace, `bash x.sh`, `./y`, `source f`,
// read and judged as the shim judges `sh FILE` (CheckScript: every
// literal command against the rules, the structural findings lenient).

// fileScript judges the script file a shell or source reads from its
// operand a: a process substitution is another command's output, like
// `curl … | sh` (refused); /dev/stdin is the shell's standard input;
// a file is read when the environment can (namedScript).
func (c *checker) fileScript(a arg, node syntax.Node, sc *scope, in stdin, what string) {
	if procSubst(a.word) {
		c.deny(idDynScript, "The validator cannot see the script "+what+" reads from a process substitution <(...): it is another command's output, as in curl ... | sh.",
			"Run the commands directly, or pass the script literally with sh -c '...'.", a.pos(nodePos(node)), node)
		return
	}
	if !a.dyn && (a.val == "/dev/stdin" || a.val == "/dev/fd/0" || a.val == "/proc/self/fd/0") {
		c.stdinScript(node, sc, in)
		return
	}
	c.namedScript(a, node, sc, false)
}

// procSubst reports whether a word holds a process substitution that a
// program reads, <(...).
func procSubst(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		if ps, ok := p.(*syntax.ProcSubst); ok && ps.Op != syntax.CmdOut {
			return true
		}
	}
	return false
}

// namedScript reads and judges the script file a names, when the
// environment has a reader, the name is literal and not under
// sandbox.deny, and the bounds allow. needShell: a program run by its
// path (./y) is judged only when it is a shell script (a shebang of a
// known shell, or none: the calling shell or execvp then run it with
// /bin/sh); python, node and the rest are out of reach.
func (c *checker) namedScript(a arg, node syntax.Node, sc *scope, needShell bool) {
	read := c.v.env.Scripts
	if read == nil || a.dyn || a.val == "" || c.scriptFiles >= maxScriptFiles || c.scriptNest >= maxScriptNest {
		return
	}
	p, ok := sc.abs(a.val)
	if !ok {
		return
	}
	if _, denied := c.v.deniedPath(a, sc); denied {
		return // never read what the sandbox hides (its text would reach a reason)
	}
	if c.writtenBefore(p) {
		c.deny(idDynScript, "This command line may write "+a.val+" before it runs it, and the validator reads the script as it is before the line runs.",
			"Write the script in one command, then run it in the next.", a.pos(nodePos(node)), node)
		return
	}
	text, ok := read(p)
	if !ok || c.scriptBytes+len(text) > maxScriptBytes || (needShell && !shellScript(text)) {
		return
	}
	c.scriptFiles++
	c.scriptBytes += len(text)
	c.scriptNest++
	lenient, trace, note := c.lenient, c.trace, c.note
	c.lenient, c.trace = true, nil
	c.note = strings.TrimSpace(note + " In the script " + a.val + ", which this command runs:")
	defer func() {
		c.scriptNest--
		c.lenient, c.trace, c.note = lenient, trace, note
	}()
	cp := *sc
	cp.script = true
	c.program(text, a.pos(nodePos(node)), &cp, stdin{}, true)
}

// shellScript reports whether a file run by its path is a shell script:
// a shebang naming a known shell (directly or through env), or no
// shebang and no binary content.
func shellScript(text string) bool {
	if !strings.HasPrefix(text, "#!") {
		head := text[:min(len(text), 4096)]
		return !strings.HasPrefix(head, "\x7fELF") && !strings.ContainsRune(head, 0)
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	interp := path.Base(f[0])
	if interp == "env" {
		interp = ""
		for _, w := range f[1:] {
			if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
				continue // -S, -i, NAME=value
			}
			interp = path.Base(w)
			break
		}
	}
	return slices.Contains(shells, interp)
}
