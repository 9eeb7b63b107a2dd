// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package copilot

import (
	"path/filepath"
	"regexp"
	"runtime"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// copilotDir is Copilot's state directory: ~/.copilot, or COPILOT_HOME.
func copilotDir(s agents.Session) string {
	if h := s.Getenv("COPILOT_HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Clean(h)
	}
	return filepath.Join(s.Home, ".copilot")
}

// State is ~/.copilot as a read-only layer with its data writable:
// session-state/ (each session's events, checkpoints, rewind snapshots),
// logs/ and the session store (SQLite). Code and trust stay read-only:
// settings.json (hooks, MCP servers, sandbox and permission settings),
// config.json (trusted folders, logins; it starts with comments),
// hooks/, mcp-config.json, lsp-config.json, agents/, skills/,
// instructions/, copilot-instructions.md, installed-plugins/ and pkg/
// (a CLI package a start runs). Measured with 1.0.102: a run writes
// config.json, settings.json.lock, session-store.db (and -wal, -shm),
// session-state/<id>/ and logs/, and extracts its JavaScript (235 MB)
// into ~/.cache/copilot/pkg/<platform>/<version>, which it runs: only
// that version's directory, when the host has it, is shown (read-only:
// the code the host runs anyway); else each launch extracts it into the
// scratch home, and the host's cache is never written.
func (Agent) State(s agents.Session) agents.State {
	dir := copilotDir(s)
	j := func(n string) string { return filepath.Join(dir, n) }
	return agents.State{
		Dirs:       []string{dir},
		Write:      []string{j("session-state"), j("logs")},
		CreateDirs: []string{dir, j("session-state"), j("logs")},
		Keep: []agents.KeptFile{
			{Name: "session-store.db", Format: agents.Magic("SQLite format 3\x00")},
			{Name: "session-store.db-wal", Format: agents.Magic("\x37\x7f\x06\x82", "\x37\x7f\x06\x83")},
			{Name: "session-store.db-shm", Format: agents.Opaque},
		},
		ReadOnly: []string{
			j("settings.json"), j("config.json"), j("mcp-config.json"), j("lsp-config.json"),
			j("copilot-instructions.md"), j("hooks") + "/", j("agents") + "/", j("skills") + "/",
			j("instructions") + "/", j("installed-plugins") + "/", j("plugins") + "/", j("pkg") + "/",
		},
		// The GitHub CLI's login, which Copilot reads (never its
		// config.yml, whose aliases run commands).
		Read: append([]string{filepath.Join(s.Home, ".config", "gh", "hosts.yml")}, extracted(s)...),
		LoginEnv: []string{"COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "GH_HOST", "COPILOT_GH_HOST",
			"COPILOT_PROVIDER_*", "COPILOT_MODEL", "COPILOT_OFFLINE"},
		Providers: providers(s),
		// What a start leaves beside the kept files, nobody's (#31): the
		// extracted CLI, a device id, locks.
		Scratch: []string{filepath.Join(s.Home, ".cache", "copilot") + "/", filepath.Join(s.Home, ".cache", "Microsoft") + "/",
			j("settings.json.lock"), j("config.json")},
	}
}

// defaultHosts are what Copilot CLI reaches without a provider of its
// own: GitHub's login and API and Copilot's model routing.
var defaultHosts = []string{"github.com", "api.github.com", "api.githubcopilot.com",
	"api.individual.githubcopilot.com", "api.business.githubcopilot.com", "api.enterprise.githubcopilot.com"}

// providers are the hosts of the agent ring's proxy (docs/ring.md "The
// network"): the launcher's COPILOT_PROVIDER_BASE_URL (BYOK) when set,
// else GitHub's own.
func providers(s agents.Session) []string {
	if u := s.Getenv("COPILOT_PROVIDER_BASE_URL"); u != "" {
		return []string{u}
	}
	return defaultHosts
}

// versionRE finds the version in `copilot --version` ("GitHub Copilot
// CLI 1.0.102.").
var versionRE = regexp.MustCompile(`\b\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?\b`)

// extracted are the directories the installed CLI extracts its package
// into and runs from (1.0.102's SEA loader: <cache>/pkg/<platform>/
// <version>, the platform linux-x64, linuxmusl-x64, ...), for the
// detected version only: another version's directory is code this CLI
// would not run, and with its self-update off it never looks there.
func extracted(s agents.Session) []string {
	v := versionRE.FindString(s.Agent.Version)
	if v == "" {
		return nil
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		return nil
	}
	cache := filepath.Join(s.Home, ".cache")
	if x := s.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		cache = filepath.Clean(x)
	}
	pkg := filepath.Join(cache, "copilot", "pkg")
	return []string{filepath.Join(pkg, "linux-"+arch, v), filepath.Join(pkg, "linuxmusl-"+arch, v)}
}
