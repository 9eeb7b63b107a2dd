// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

// Rule ids of the structural checks, which are built into the validator
// rather than written in the policy. They are stable: logs, tests and the
// model's retries refer to them.
const (
	idParse       = "shell.parse"           // not valid Bash
	idUnsupported = "shell.unsupported"     // a node the walker does not know (fail closed)
	idDynCommand  = "shell.dynamic-command" // class 3: command name computed at run time
	idDynScript   = "shell.dynamic-script"  // class 4: sh -c / eval / stdin script not visible
	idDynAssign   = "shell.dynamic-assign"  // class 7: declare "$x", export $(cat f)
	idDepth       = "shell.depth"           // class 4: wrappers nested beyond max_depth
	idDeceptive   = "shell.deceptive-bytes" // class 14: control or invisible characters
	idEnvHook     = "env.exec-hook"         // classes 6 and 7: deny_env assignment
	idPathDenied  = "path.denied"           // class 8: a sandbox.deny path
	idInternal    = "internal.error"        // recovered panic
)

const (
	hintParse       = "Fix the quoting or split the command."
	hintUnsupported = "Rewrite the command with plainer shell syntax."
	hintDynCommand  = "Spell the command name out literally."
	hintDynScript   = "Pass the script as a literal string, or run its commands directly."
	hintDynAssign   = "Spell the variable name out (NAME=value)."
	hintDepth       = "Run the inner command directly instead of through several wrappers."
	hintDeceptive   = "Retype the command with plain spaces and no control or invisible characters."
	hintEnvHook     = "Remove the assignment; if the program really needs this variable, ask the user."
	hintPathDenied  = "It cannot be read from here; ask the user if you need something from it."
)
