// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package validator judges the intent of a shell command before the shim
// runs it, and explains every refusal in one line the model can act on.
//
// The validator is not the security boundary. The OS sandbox (bubblewrap
// on Linux) confines reads, writes, the network and processes whatever the
// spelling of a command; nothing there may depend on the validator being
// right. The validator exists for what the sandbox must allow: destroying
// the agent's own workspace or remote state (git push --force, git reset
// --hard, rm -rf of the workspace), and constructs it cannot analyse, which
// it refuses (fails closed) so that the model gets a reason instead of a
// silent surprise. See docs/validator.md §1 and the bypass classes in §7.
//
// # How a command is judged
//
// [Validator.Check] parses the command as Bash with mvdan.cc/sh/v3 (no
// error recovery: a recovered tree is never trusted) and walks every node
// with an explicit type switch whose default refuses the command
// ("shell.unsupported"). Every command substitution, process
// substitution, heredoc body, parameter-expansion operand, arithmetic
// expression, array index, redirect target and assignment value is
// reached; each is a nested program checked with the same rules (class 2).
//
// Each simple command is decoded into argv with a locked-down expansion
// config of mvdan.cc/sh/v3/expand (HOME and PWD only, no command or
// process substitution, no globbing): `"c"at`, `c\at` and `$'\x63at'` all
// decode to cat (class 3). A command name that cannot be decoded is refused
// ("shell.dynamic-command"). Arguments that cannot be decoded are
// "dynamic": rules treat them as described on [policy.Rule]; path rules
// fail closed on them.
//
// Wrappers (env, timeout, nice, nohup, setsid, stdbuf, time, command,
// builtin, exec, xargs, flock, sudo, doas, find -exec, busybox, git bisect
// run and more, see prefixWrappers) are unwrapped and the wrapped command
// is checked as a simple command of its own. The strings of sh -c (and
// bash, dash, zsh...), eval, trap, alias, env -S, watch, script -c, flock
// -c, mapfile -C, compgen -C and git submodule foreach, and a script a
// shell reads from a heredoc, are parsed and checked as programs (class
// 4). Unwrapping is bounded by policy.Shell.MaxDepth ("shell.depth"); a
// script the validator cannot see (sh -c "$x", eval "$x", curl x | sh,
// bash <(curl x), sed 's/x/y/e') is refused ("shell.dynamic-script").
// find -delete and find -exec rm {} are judged as rm of find's start
// paths (find.go), sed's e COMMAND as a program (sed.go), and the script
// files a command names in the workspace (bash x.sh, ./y, source f) are
// read through [Env.Scripts] and judged like [Validator.CheckScript]
// (scriptfile.go; docs/validator.md §2, §4).
//
// Assignments to the names in policy.Shell.DenyEnv are refused
// ("env.exec-hook"), whether written NAME=v, through declare and friends,
// env NAME=v, or as pseudo-assignments such as read, printf -v, mapfile,
// getopts, declare -n and ${NAME:=v} (classes 6 and 7).
//
// Control characters and invisible Unicode characters outside quotes are
// refused ("shell.deceptive-bytes", class 14). Arguments and redirect
// targets that name a path under policy.Sandbox.Deny are refused with an
// explanation ("path.denied", class 8); the sandbox hides those paths
// anyway.
//
// Among all findings the strictest decision wins (deny > ask > allow); among
// equal decisions the first one found wins, and every ask finding is kept
// in [Result.Asks] (a person is asked about all of them). The walk keeps track of the
// current directory across cd, so that "no path argument" means the right
// directory (class 9), and forgets it when it cannot know.
//
// # Rule examples
//
// Every rule's match and not_match examples are checked by [New], with the
// rule's own policy, in a fixed environment (workspace and cwd /work/ws,
// home /home/user, TMPDIR /tmp). In an example, the text ${workspace} is
// replaced by that workspace (/work/ws) before the example is checked. An example matches when [Validator.Check]
// returns the rule's id, or when the rule matches it on its own and a
// stricter rule of its layer or above, or one as strict of a higher
// layer, decides it (a user's rule that tightens a default one):
// see checkExamples and docs/configuration.md, "Replacing and tightening
// a rule". Errors name the rule's file, line and column (policy.Origin).
package validator
