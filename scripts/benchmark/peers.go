// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"os/exec"
)

// peer is another sandbox an agent user could pick, timed on the same
// `true` in the same run. scripts/bench installs them when it can
// (scripts/peers); a peer that is not installed is left out and said so.
type peer struct {
	name string
	bin  string // found on PATH, or given by a flag
	argv func(bin string) []string
}

var peers = []peer{
	{name: "firejail --noprofile", bin: "firejail", argv: func(b string) []string {
		return []string{b, "--quiet", "--noprofile", "/bin/bash", "--noprofile", "--norc", "-c", "true"}
	}},
	{name: "Anthropic sandbox-runtime (srt -c)", bin: "srt", argv: func(b string) []string {
		return []string{b, "-c", "true"}
	}},
	{name: "Codex's codex sandbox", bin: "codex", argv: func(b string) []string {
		return []string{b, "sandbox", "--", "/bin/bash", "--noprofile", "--norc", "-c", "true"}
	}},
}

// peerSetups returns a setup for every installed peer and the names of
// the missing ones. dir is the working directory (the small workspace).
func peerSetups(dir string, paths map[string]string) (found []*setup, missing []string) {
	for _, p := range peers {
		bin := paths[p.bin]
		if bin == "" {
			var err error
			if bin, err = exec.LookPath(p.bin); err != nil {
				missing = append(missing, p.name)
				continue
			}
		}
		argv := p.argv(bin)
		found = append(found, &setup{name: p.name, cmd: func() *exec.Cmd {
			c := exec.Command(argv[0], argv[1:]...)
			c.Dir = dir
			return c
		}})
	}
	return found, missing
}
