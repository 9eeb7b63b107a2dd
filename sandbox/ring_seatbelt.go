// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package sandbox

import "fmt"

// RingSeatbeltProfile returns the macOS sandbox-exec profile of the agent
// ring, of the same shape as [RingLayout]: everything is readable and
// runnable (the agent keeps its network, Mach services and terminal), but
// writes go only to the workspace (protected paths excepted), the agent's
// state (guards excepted), the caches, Git's worktree parts, the
// session's writable directories and the temp dirs; the Deny and Hide
// paths are unreadable, except the credential files. In SBPL the last
// matching rule wins, so the order is: allow, writes denied, writes
// allowed, guards and protected paths denied, reads denied, credentials
// allowed.
//
// Seatbelt cannot put another file over a path, so the shells are not
// replaced on macOS: RingSpec.Shells and Exe are ignored. This profile
// has never been loaded by a real sandbox-exec here.
func RingSeatbeltProfile(r RingSpec) (string, error) {
	s := r.Command
	if err := checkAbs("workspace", s.Workspace); err != nil {
		return "", fmt.Errorf("ring seatbelt profile: %w", err)
	}
	b := &sbplWriter{}
	b.line("(version 1)")
	b.line("(allow default)")
	b.line("")
	b.line("; Writes only where the agent works and keeps its state.")
	b.line("(deny file-write*)")
	b.line("(allow file-write* file-write-data file-ioctl")
	b.line("  (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/tty\") (literal \"/dev/ptmx\")")
	b.line("  (regex #\"^/dev/ttys[0-9]+$\") (subpath \"/dev/fd\"))")
	b.rule("(allow file-write*", "subpath", darwinTemp)
	if r.Tmp != "" {
		b.rule("(allow file-write*", "subpath", []string{r.Tmp})
	}
	b.rule("(allow file-write*", "subpath", []string{s.Workspace})
	for _, list := range []struct {
		comment string
		paths   []string
	}{
		{"; The agent's own state and the user's agent.write paths.", r.Write},
		{"; Caches.", s.Caches},
		{"; A linked worktree's git parts.", s.Git.Write},
		{"; The session's writable directories.", r.SessionWrite},
	} {
		if len(list.paths) > 0 {
			b.line(list.comment)
			b.rule("(allow file-write*", "subpath", list.paths)
		}
	}
	b.line("")
	prot, pins := seatbeltProtect(s)
	for _, g := range r.Guard {
		prot = append(prot, g.Path)
	}
	if len(prot) > 0 {
		b.line("; Protected paths and code-carrying agent configuration stay")
		b.line("; read-only, whether or not they exist yet.")
		b.rule("(deny file-write*", "subpath", prot)
		if len(pins) > 0 {
			b.rule("(deny file-write*", "literal", pins)
		}
	}
	if r.Session != "" {
		b.line("; The session directory is read-only, its writable parts excepted.")
		b.rule("(deny file-write*", "subpath", []string{r.Session})
		if len(r.SessionWrite) > 0 {
			b.rule("(allow file-write*", "subpath", r.SessionWrite)
		}
	}
	b.line("")
	if deny := append(append([]string{}, s.Deny...), r.Hide...); len(deny) > 0 {
		b.line("; Denied paths: unreadable, last but for the agent's credentials.")
		b.rule("(deny file-read* file-write*", "subpath", deny)
		if len(r.Credentials) > 0 {
			b.rule("(allow file-read* file-write*", "literal", r.Credentials)
		}
	}
	if b.err != nil {
		return "", fmt.Errorf("ring seatbelt profile: %w", b.err)
	}
	return b.String(), nil
}
