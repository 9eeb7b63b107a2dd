// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

// FileAccess is what an agent's file tool does with a path. The hook
// command turns it into the path judge's sandbox.Access in one named
// function (cmd/lite-sandbox, sandboxAccess), so that this package
// imports nothing of ours.
type FileAccess int

const (
	FileRead FileAccess = iota
	FileSearch
	FileWrite
)

// PathChecker judges one path of a file tool with the session's frozen
// policy (pathjudge.Judge): p as the model wrote it, relative to cwd.
type PathChecker func(a FileAccess, p, cwd string) Verdict

// FileHooker is implemented by agents whose hook also judges their own
// file tools (Claude, Codex, Crush, Pi): `lite-sandbox hook NAME`
// prefers it to [Hooker]. The OS (the agent ring) is the boundary; the
// hook tells the model why a path was refused.
type FileHooker interface {
	HookFiles(in []byte, check Checker, judge PathChecker, shim string) (out []byte, code int)
}

// OwnWriter is implemented by agents whose file tools write their own
// state outside the workspace (Claude's plan files): the path judge lets
// those writes through. Paths are absolute and clean.
type OwnWriter interface {
	OwnWrites(home string) []string
}
