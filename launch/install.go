// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/pathlook"
)

// installRoots is what the ring shows read-only of the agent's own
// installation, outside the system directories: the program as it is
// started (a symlink in ~/.local/bin) and its real file's package root,
// and the interpreter its #! line names (node, found in PATH) with its
// root. A package root is the prefix before node_modules (the npm
// prefix, so that hoisted dependencies such as Codex's platform binary
// come along), else the parent of a bin directory, else the file's
// directory.
func installRoots(argv0 string, getenv func(string) string) []string {
	if !filepath.IsAbs(argv0) {
		return nil
	}
	real := realOrSelf(argv0)
	out := []string{argv0, real, packageRoot(real)}
	if interp := interpreter(real, getenv); interp != "" {
		ri := realOrSelf(interp)
		out = append(out, interp, ri, packageRoot(ri))
	}
	return out
}

// packageRoot returns the installation directory of the file p.
func packageRoot(p string) string {
	if i := strings.Index(p, "/node_modules/"); i > 0 {
		root := p[:i]
		if filepath.Base(root) == "lib" {
			root = filepath.Dir(root) // prefix/lib/node_modules: prefix holds bin/ too
		}
		return root
	}
	dir := filepath.Dir(p)
	if filepath.Base(dir) == "bin" {
		return filepath.Dir(dir)
	}
	return dir
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

// loginEnv is what the agent logs in with (its adapter's LoginEnv).
func loginEnv(a agents.Agent, info agents.Session) []string {
	if so, ok := a.(agents.StateOwner); ok {
		return so.State(info).LoginEnv
	}
	return nil
}
