// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"path"
	"slices"
	"strings"
)

// FilterEnv returns the part of env ("NAME=value" entries) that a
// sandboxed command may see: names matching Env, minus names matching
// SecretEnv unless Env names them exactly. Secrets in the launcher's
// environment (API keys, tokens) thus never reach the sandbox, whatever
// an allow glob says (escape class 3).
func (s Sandbox) FilterEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if s.envAllowed(name) {
			out = append(out, kv)
		}
	}
	return out
}

// envAllowed tells whether a variable of this name passes into the
// sandbox.
func (s Sandbox) envAllowed(name string) bool {
	if slices.Contains(s.Env, name) {
		return true
	}
	if !matchAny(s.Env, name) {
		return false
	}
	return !matchAny(s.SecretEnv, name)
}

// matchAny runs once per variable of every command's environment, so
// it avoids path.Match where it cannot match: a glob without meta
// characters matches only itself, and a name must start with the glob's
// literal prefix (docs/performance.md).
func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		i := strings.IndexAny(g, `*?[\`)
		if i < 0 {
			if g == name {
				return true
			}
			continue
		}
		if !strings.HasPrefix(name, g[:i]) {
			continue
		}
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
