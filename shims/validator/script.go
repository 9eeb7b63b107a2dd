// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// scriptLenient are the structural findings that do not refuse a script
// file or a script on stdin (CheckScript), where they refuse a command
// string (Check).
//
// Why: a command string is what the model typed, and a construct the
// validator cannot analyse there is refused with a reason the model can
// act on (spell it out). A script run by `sh FILE`, its shebang or on
// stdin is mostly a real program: configure, libtool, build and test
// scripts use eval "$x", command names held in variables, export $(...),
// deep wrappers and, often, syntax that is POSIX but not Bash. Refusing
// those would break builds, and the OS sandbox confines the script
// whatever it does (it is the boundary; validator.md §1). So in scripts
// the validator still refuses what it can see, the policy's rules
// (git push --force, rm -rf ~, ...) on every literal command of the
// file, and lets what it cannot see run in the sandbox: a rule's path
// that a variable or an unknown directory holds matches nothing there
// (rm -rf "$TD" in a test script), and sandbox.deny reads are left to
// the sandbox, which hides those paths anyway.
var scriptLenient = map[string]bool{
	idParse:       true,
	idUnsupported: true,
	idDynCommand:  true,
	idDynScript:   true,
	idDynAssign:   true,
	idDepth:       true,
	idDeceptive:   true,
	idEnvHook:     true,
	// sandbox.deny paths are hidden by the sandbox whatever reads them;
	// in scripts, the validator's guesses (a sed program full of
	// slashes and stars, a path in a variable) hit real build scripts.
	idPathDenied: true,
}

// CheckScript judges the text of a shell script file (or a script read
// from stdin) with the lenient structural rules above. Like [Check] it
// never panics.
func (v *Validator) CheckScript(script string) (res Result) {
	defer func() {
		if recover() != nil {
			// An internal failure in a script is not the model's
			// construct: the sandbox confines it (see scriptLenient).
			res = Result{Decision: policy.Allow}
		}
	}()
	c := newChecker(v)
	c.lenient = true
	sc := c.initialScope()
	c.program(script, syntax.Pos{}, &sc, stdin{}, false)
	return c.result()
}
