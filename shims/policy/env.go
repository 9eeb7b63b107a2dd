// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox/settings"
)

// FilterEnv returns the part of env ("NAME=value" entries) that a
// sandboxed command may see: names matching Env, minus names matching
// SecretEnv unless Env names them exactly. Secrets in the launcher's
// environment (API keys, tokens) thus never reach the sandbox, whatever
// an allow glob says (escape class 3); nor do credentials in a URL in a
// value that passes (PIP_INDEX_URL=https://user:password@host/simple
// arrives as https://host/simple: the index then refuses, rather than a
// public one being used).
func (s Sandbox) FilterEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if s.envAllowed(name) {
			if clean := settings.StripURLCredentials(value); clean != value {
				kv = name + "=" + clean
			}
			out = append(out, kv)
		}
	}
	return out
}

// EnvReport says, for --dry-run, which variables of env pass into the
// sandbox as they are, which pass with credentials removed from a URL,
// and which look like secrets (secret_env) and stay out (names only,
// never values).
func (s Sandbox) EnvReport(env []string) (pass, stripped, secret []string) {
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		switch {
		case s.envAllowed(name) && settings.StripURLCredentials(value) != value:
			stripped = append(stripped, name)
		case s.envAllowed(name):
			pass = append(pass, name)
		case matchAny(s.SecretEnv, name):
			secret = append(secret, name)
		}
	}
	slices.Sort(pass)
	slices.Sort(stripped)
	slices.Sort(secret)
	return pass, stripped, secret
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
