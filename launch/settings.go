// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/sandbox/settings"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// printSettings is --dry-run's account of the user's settings the
// command sandbox carries over (issue 31, finding 2;
// docs/configuration.md, "Your tools' settings"): the go env file and
// npmrc (the keys kept and those left out), and the variables of the
// launcher's environment that pass, pass with a URL's credentials
// removed, or stay out as secrets. Names only, never values.
func printSettings(w io.Writer, p *policy.Policy, home string, getenv func(string) string, environ []string) error {
	if environ == nil {
		environ = os.Environ()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "command sandbox: your settings (docs/configuration.md, \"Your tools' settings\"):\n")
	for _, f := range []struct{ tool, host, dst string }{
		{"go env", settings.UserGoEnv(home, getenv), "~/.config/go/env"},
		{"npm", settings.UserNpmrc(home, getenv), "~/.npmrc"},
	} {
		data, err := os.ReadFile(f.host)
		if f.host == "" || err != nil {
			fmt.Fprintf(&b, "  %s: no file (%s)\n", f.tool, orNone(f.host))
			continue
		}
		var content []byte
		var dropped []string
		if f.tool == "go env" {
			content, dropped = settings.GoEnvFile(data, "", getenv("GOPROXY"))
		} else {
			content, dropped = settings.NpmrcFile(data)
		}
		fmt.Fprintf(&b, "  %s: %s, a copy at %s: keeps %s; leaves out %s\n",
			f.tool, f.host, f.dst, list(keys(content)), list(dropped))
	}
	pass, stripped, secret := p.Sandbox.EnvReport(environ)
	fmt.Fprintf(&b, "  environment (sandbox.env): passes %s\n", list(pass))
	fmt.Fprintf(&b, "  environment: passes without the credentials in a URL %s\n", list(stripped))
	fmt.Fprintf(&b, "  environment: left out as secrets (sandbox.secret_env) %s\n", list(secret))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("dry run: %w", err)
	}
	return nil
}

// keys are the names of the "KEY=value" lines of a settings file.
func keys(content []byte) []string {
	var ks []string
	for _, l := range strings.Split(string(content), "\n") {
		if k, _, ok := strings.Cut(l, "="); ok {
			ks = append(ks, k)
		}
	}
	return ks
}

func list(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, " ")
}

func orNone(p string) string {
	if p == "" {
		return "none"
	}
	return p
}
