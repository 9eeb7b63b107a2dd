// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// configDir is Claude's configuration directory: $CLAUDE_CONFIG_DIR, else
// ~/.claude.
func configDir(s agents.Session) string {
	if d := s.Getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(s.Home, ".claude")
}

// globalConfig is Claude's global state file: ~/.claude.json, or
// .claude.json inside $CLAUDE_CONFIG_DIR when that is set.
func globalConfig(s agents.Session) string {
	if d := s.Getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(filepath.Clean(d), ".claude.json")
	}
	return filepath.Join(s.Home, ".claude.json")
}

// dataDirs are what Claude Code writes as data in its configuration
// directory (observed with 2.1.197 under launch): transcripts and
// per-project state, todos, shell snapshots, feature-flag caches,
// per-session environment, IDE locks, debug logs, file history for
// rewind, plans, backups of ~/.claude.json, pasted images. Everything
// else there (settings.json, agents/, commands/, skills/,
// output-styles/, plugins/, hooks/, CLAUDE.md, statusline scripts) is
// code or instructions the next start runs, and read-only in the ring.
var dataDirs = []string{
	"projects", "todos", "shell-snapshots", "statsig", "session-env", "ide",
	"debug", "file-history", "plans", "backups", "paste-cache", "logs", "telemetry",
}

// keep are the data files there and what of each may change (escape
// classes 53, 56): the prompt history, lines of JSON, and the OAuth
// credentials (refreshed, or a /login), of which only the tokens.
var keep = []agents.KeptFile{
	{Name: "history.jsonl", Format: agents.JSONLines},
	{Name: ".credentials.json", Merge: agents.JSONKeys([]string{"claudeAiOauth"}, []string{"mcpOAuth"})},
}

// globalData are the keys of ~/.claude.json Claude changes as data in a
// session (Claude Code 2.1.197's global and project config): counters,
// caches, tips, onboarding and migration marks, the account of a login,
// per-project usage of the last session. Everything else goes back as
// it was (escape class 54): the trust flags
// (projects.*.hasTrustDialogAccepted, hasClaudeMdExternalIncludesApproved),
// allowedTools, mcpServers and the MCP switches, env, apiKeyHelper,
// customApiKeyResponses, primaryApiKey, the permission-mode warnings,
// the feature-flag caches (fetched again), plugins and marketplaces, and
// any key this list does not know.
var globalData = [][]string{
	{"numStartups"}, {"firstStartTime"}, {"userID"}, {"anonymousId"}, {"installMethod"},
	{"tipsHistory"}, {"promptQueueUseCount"}, {"btwUseCount"}, {"memoryUsageCount"}, {"queuedCommandUpHintCount"},
	{"subscriptionNoticeCount"}, {"hasSeenTasksHint"}, {"hasUsed*"},
	{"hasCompletedOnboarding"}, {"lastOnboardingVersion"}, {"lastReleaseNotesSeen"},
	{"cachedChangelog"}, {"changelogLastFetched"}, {"*MigrationComplete"}, {"oauthAccount"}, {"claudeCodeFirstTokenDate"}, {"hasAvailableSubscription"},
	{"lastPlanModeUse"}, {"feedbackSurveyState"}, {"skillUsage"}, {"githubRepoPaths"},
	{"isQualifiedForDataSharing"}, {"recommendedSubscription"}, {"fallbackAvailableWarningThreshold"},
	{"theme"}, {"editorMode"}, {"verbose"},
	{"projects", "*", "last*"}, {"projects", "*", "exampleFiles"}, {"projects", "*", "exampleFilesGeneratedAt"},
	{"projects", "*", "projectOnboardingSeenCount"}, {"projects", "*", "hasCompletedProjectOnboarding"},
	{"projects", "*", "hasClaudeMdExternalIncludesWarningShown"}, {"projects", "*", "reactVulnerabilityCache"},
	{"projects", "*", "history"},
}

// State is what Claude Code writes: its data below the configuration
// directory (dataDirs, and keep: the history and the OAuth credentials), the global
// state file (whose code-carrying keys launch restores), its Node cache
// and ~/.local/state/claude (locks). The rest of the configuration
// directory is a read-only layer; lock directories and temp files beside
// ~/.claude.json land in the scratch home.
func (Agent) State(s agents.Session) agents.State {
	dir := configDir(s)
	glob := globalConfig(s)
	st := agents.State{
		Dirs: []string{dir},
		Write: []string{
			glob,
			filepath.Join(s.Home, ".cache", "claude-cli-nodejs"),
			filepath.Join(s.Home, ".cache", "claude"),
			filepath.Join(s.Home, ".local", "state", "claude"),
		},
		// Managed settings and the native installer's versions.
		Read: []string{"/etc/claude-code", filepath.Join(s.Home, ".local", "share", "claude")},
		ReadOnly: []string{
			filepath.Join(dir, "settings.json"),
			filepath.Join(dir, "settings.local.json"),
			filepath.Join(dir, "hooks") + "/",
			filepath.Join(dir, "plugins") + "/",
			filepath.Join(dir, "agents") + "/",
			filepath.Join(dir, "commands") + "/",
			filepath.Join(dir, "skills") + "/",
			filepath.Join(dir, "output-styles") + "/",
			filepath.Join(dir, "CLAUDE.md"),
			filepath.Join(dir, "statusline.sh"),
		},
		Credentials: []string{filepath.Join(dir, ".credentials.json")},
		LoginEnv:    []string{"ANTHROPIC_*", "CLAUDE_CODE_*", "CLAUDE_CONFIG_DIR"},
		Providers:   providers(s),
		CreateDirs:  []string{dir},
		CreateJSON:  []string{glob},
		Guard:       []agents.GuardedFile{{Path: glob, Data: globalData}},
		// The housekeeping sentinel Claude Code writes once a day (its
		// mtime only): no line at the end (#31).
		Scratch: []string{filepath.Join(dir, ".last-cleanup")},
	}
	for _, d := range dataDirs {
		st.Write = append(st.Write, filepath.Join(dir, d))
		st.CreateDirs = append(st.CreateDirs, filepath.Join(dir, d))
	}
	st.Keep = keep
	return st
}

// defaultHosts are what Claude Code reaches without ANTHROPIC_BASE_URL:
// the API, its OAuth login (console and claude.ai) and its feature flags.
var defaultHosts = []string{"api.anthropic.com", "console.anthropic.com", "claude.ai", "platform.claude.com", "statsig.anthropic.com"}

// providers are the hosts of the agent ring's proxy (docs/ring.md "The
// network"): the launcher's ANTHROPIC_BASE_URL when set, else
// Anthropic's own.
func providers(s agents.Session) []string {
	if u := s.Getenv("ANTHROPIC_BASE_URL"); u != "" {
		return []string{u}
	}
	return defaultHosts
}
