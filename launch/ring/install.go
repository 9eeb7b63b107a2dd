// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package ring

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/pathlook"
)

// installRoots is what the ring shows read-only of the agent's own
// installation, outside the system directories: the program as it is
// started (a symlink in ~/.local/bin) and its real file, the npm prefix
// of a program installed with npm (the part before node_modules, so
// that its dependencies, hoisted ones such as Codex's platform binary
// included, come along), and the interpreter its #! line names (node,
// found in PATH), likewise. Nothing else of the directories they lie in:
// a program in ~/bin must not bring the home along.
func installRoots(argv0 string, getenv func(string) string) []string {
	if !filepath.IsAbs(argv0) {
		return nil
	}
	real := realOrSelf(argv0)
	out := []string{argv0, real}
	if root := npmPrefix(real); root != "" {
		out = append(out, root)
	}
	if interp := interpreter(real, getenv); interp != "" {
		ri := realOrSelf(interp)
		out = append(out, interp, ri)
		if root := npmPrefix(ri); root != "" {
			out = append(out, root)
		}
	}
	return out
}

// npmPrefix returns the directory that holds the node_modules the file
// p lies in (prefix/lib for a global install, the project for a local
// one), or "".
func npmPrefix(p string) string {
	if i := strings.Index(p, "/node_modules/"); i > 0 {
		return p[:i]
	}
	return ""
}

// interpreter returns the program a script's #! line runs: an absolute
// one as it is, `env NAME` looked up in PATH; "" for a binary.
func interpreter(p string, getenv func(string) string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" || !strings.HasPrefix(line, "#!") {
		return ""
	}
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return ""
	}
	prog := fields[0]
	if filepath.Base(prog) == "env" {
		for _, a := range fields[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = a
				break
			}
		}
		env := []string{"PATH=" + getenv("PATH")}
		found, err := pathlook.Find(prog, env, "")
		if err != nil {
			return ""
		}
		return found
	}
	return prog
}
