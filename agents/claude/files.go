// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package claude

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// fileTools are the tools the launch-owned PreToolUse hook judges (the
// file tools of Claude 2.1.x; Glob, Grep and LS are offered only by some
// builds, docs/agents.md §8.1).
const fileTools = "Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS"

// HookCommand is the hook's shell command, guarded: Claude's hooks fail
// open on exit 1 or a missing binary (exit 127), so anything but our
// answer is exit 2, which blocks (docs/agents.md §8.1).
func HookCommand(exe string) string { return guardedHook(exe, "claude") }

// guardedHook is `[ -x EXE ] && EXE hook NAME || exit 2`.
func guardedHook(exe, name string) string {
	q := agents.ShellQuote(exe)
	return "[ -x " + q + " ] && " + q + " hook " + name + " || exit 2"
}

// homePersistence are files in the home directory that run code the
// next time a shell or Claude starts; Claude's Write and Edit are denied
// them by rule, whatever the hook says (cplt's host-persistence list).
var homePersistence = []string{
	".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".bash_logout", ".config/autostart/**", ".claude/settings.json", ".claude/plugins/**",
	".claude/statusline.sh", ".claude/hooks/**",
}

// denyRules are the launch-owned permissions.deny rules: reads of the
// sandbox.deny paths, writes of the protected paths and of the home's
// persistence files. Deny rules from every settings source add up and
// win in every mode, bypass included, and no allow rule lifts them
// (docs/agents.md §8.1). "//" starts an absolute path.
func denyRules(s agents.Session) []string {
	var rules []string
	both := func(tool, p string) {
		rules = append(rules, tool+"(/"+p+")", tool+"(/"+p+"/**)")
	}
	for _, d := range s.Deny {
		both("Read", d)
	}
	for _, p := range s.Protect {
		both("Edit", p)
	}
	if s.Home != "" {
		for _, rel := range homePersistence {
			rules = append(rules, "Edit(/"+path.Join(s.Home, rel)+")")
		}
	}
	return rules
}

// toolInput holds the path fields of Claude's file tools (sdk-tools.d.ts
// of 2.1.197).
type toolInput struct {
	FilePath     *string `json:"file_path"`
	NotebookPath *string `json:"notebook_path"`
	Path         *string `json:"path"`
	Pattern      *string `json:"pattern"`
}

type hookIn struct {
	ToolName  string    `json:"tool_name"`
	Cwd       string    `json:"cwd"`
	ToolInput toolInput `json:"tool_input"`
}

// HookFiles is `lite-sandbox hook claude`: it judges the path of each
// file tool call with the session's policy and denies with the judge's
// reason, which Claude shows the model; an allowed call gets no output
// (Claude's own rules and mode then decide). Anything it cannot read
// denies.
func (Agent) HookFiles(in []byte, _ agents.Checker, judge agents.PathChecker, _ string) ([]byte, int) {
	var h hookIn
	if err := json.Unmarshal(in, &h); err != nil {
		return deny("lite-sandbox: the hook input is not valid JSON; the tool call was refused: " + err.Error())
	}
	type check struct {
		a agents.FileAccess
		p string
	}
	var checks []check
	need := func(a agents.FileAccess, p *string) bool {
		if p == nil || *p == "" {
			return false
		}
		checks = append(checks, check{a, *p})
		return true
	}
	ti := h.ToolInput
	switch h.ToolName {
	case "Read":
		if !need(agents.FileRead, ti.FilePath) {
			return deny("lite-sandbox: a Read call without file_path; refused")
		}
	case "Write", "Edit", "MultiEdit":
		if !need(agents.FileWrite, ti.FilePath) {
			return deny("lite-sandbox: a " + h.ToolName + " call without file_path; refused")
		}
	case "NotebookEdit":
		if !need(agents.FileWrite, ti.NotebookPath) {
			return deny("lite-sandbox: a NotebookEdit call without notebook_path; refused")
		}
	case "Glob", "Grep", "LS":
		if !need(agents.FileSearch, ti.Path) {
			cwd := h.Cwd
			need(agents.FileSearch, &cwd)
		}
		// Glob takes its base directory from an absolute pattern.
		if h.ToolName == "Glob" && ti.Pattern != nil {
			if base := globBase(*ti.Pattern); base != "" {
				need(agents.FileSearch, &base)
			}
		}
	default:
		return nil, 0
	}
	for _, c := range checks {
		if v := judge(c.a, c.p, h.Cwd); !v.Allowed {
			return deny(v.Message)
		}
	}
	return nil, 0
}

// globBase is the directory part of an absolute (or ~) pattern before
// its first wildcard; "" for a relative pattern (its base is path/cwd).
func globBase(pat string) string {
	if !strings.HasPrefix(pat, "/") && !strings.HasPrefix(pat, "~") {
		return ""
	}
	if i := strings.IndexAny(pat, "*?[{"); i >= 0 {
		pat = pat[:i]
		if j := strings.LastIndex(pat, "/"); j >= 0 {
			pat = pat[:j+1]
		}
	}
	if pat == "" {
		return "/"
	}
	return pat
}

func deny(reason string) ([]byte, int) {
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       "deny",
		"permissionDecisionReason": reason,
	}})
	return append(b, '\n'), 0
}

// addFileRules adds the launch-owned file-tool rules to the --settings
// object v: the deny rules always; in the agent ring also the PreToolUse
// hook, and hooks on. Hooks run through /bin/sh, which in the ring is the
// shim: the user's and the repository's hooks then run in the command
// sandbox, and ours (recognised by the shim) directly. "disableAllHooks":
// false is explicit, because flag settings outrank the project's, whose
// disableAllHooks: true would otherwise switch our hook off silently
// (docs/agents.md §8.1). Outside the ring hooks stay off (they would run
// on the host), and only the deny rules explain.
func addFileRules(v map[string]any, s agents.Session) {
	if rules := denyRules(s); len(rules) > 0 {
		v["permissions"] = map[string]any{"deny": rules}
	}
	if !s.Ring || s.Exe == "" {
		return
	}
	v["disableAllHooks"] = false
	pre := []any{map[string]any{
		"matcher": fileTools,
		"hooks":   []any{map[string]any{"type": "command", "command": HookCommand(s.Exe), "timeout": 30}},
	}}
	if s.Prompt {
		// The person answers `ask` rules on the launcher's confirm
		// line while this hook waits (docs/validator.md §8): longer
		// than the line waits (approval.ConfirmFor, 4 minutes).
		pre = append(pre, map[string]any{
			"matcher": "Bash",
			"hooks":   []any{map[string]any{"type": "command", "command": AskHookCommand(s.Exe), "timeout": askHookTimeout}},
		})
	}
	v["hooks"] = map[string]any{"PreToolUse": pre}
}

// askHookTimeout (seconds) is the ask hook's: longer than the confirm
// line waits for the person (approval.ConfirmFor).
const askHookTimeout = 300

// OwnWrites are the directories Claude's own Write and Edit calls use
// outside the workspace: its plan files (plan mode writes the plan with
// the Write tool). Its settings, plugins and hooks stay refused.
func (Agent) OwnWrites(home string) []string {
	if home == "" {
		return nil
	}
	return []string{path.Join(home, ".claude", "plans")}
}
