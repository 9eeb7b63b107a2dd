// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"os"
	"regexp"
)

// envName is what a configuration's key names as the environment
// variable that holds a provider's key.
var envName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// ConfigEnv returns the environment variable names that the files name
// through re (its first group), for an agent's LoginEnv: a provider
// configured with its key in MOCK_API_KEY (Codex's env_key, Pi's
// apiKey, Crush's "$VAR") must keep that variable in the ring although
// sandbox.secret_env matches it. Only names are taken, and only from the
// user's own configuration, which the ring keeps read-only.
func ConfigEnv(re *regexp.Regexp, files ...string) []string {
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			if n := string(m[1]); envName.MatchString(n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// ConfigURLs returns the URLs that the files name through re (its first
// group), for an agent's Providers: the base URL of each provider the
// user configured. A value that is not an absolute http(s) URL (a
// "$VAR" Crush expands) is skipped.
func ConfigURLs(re *regexp.Regexp, files ...string) []string {
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			if u := string(m[1]); httpURL.MatchString(u) {
				out = append(out, u)
			}
		}
	}
	return out
}

// httpURL is an absolute http(s) URL with a literal host.
var httpURL = regexp.MustCompile(`^https?://[A-Za-z0-9.\-\[\]:]+(/|$)`)
