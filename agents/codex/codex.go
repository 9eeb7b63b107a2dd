// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package codex is the adapter for the Codex CLI. Codex runs commands
// with the user's passwd shell, not $SHELL, and lets the model choose
// another shell (A5), so the route is a PreToolUse hook,
// `lite-sandbox hook codex`, that rewrites every shell tool call to
// `'<shim>' -c '<command>'` or denies it with the validator's reason
// (docs/agents.md §4.3).
package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Agent is the Codex adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "codex".
func (Agent) Name() string { return info.Name }

// info is the Codex CLI CLI.
var info = agents.Info{Name: "codex", Binary: "codex", Install: "npm install -g @openai/codex"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `codex --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// subcommands that start a session and take the routing flags; "" is the
// interactive TUI. Others (review has no bypass flags) are refused rather
// than run without our hook.
var sessionCommands = map[string]bool{"": true, "exec": true, "e": true, "resume": true, "fork": true}

// tuiCommands attach to a shared background server unless told not to
// (A10).
var tuiCommands = map[string]bool{"": true, "resume": true, "fork": true}

// HookCommand is the hook's shell command: Codex runs it with the user's
// shell.
func HookCommand(exe string) string {
	return agents.ShellQuote(exe) + " hook codex"
}

// Flags are the arguments that route commands through the hook:
//   - the hook itself, trusted for this run only (hooks from -c never run
//     untrusted); --trust is never passed, so a repository's own
//     .codex/hooks.json stays untrusted and does not run (A2);
//   - Codex's own sandbox and approvals off (A11): our sandbox is the
//     boundary, and a nested bwrap conflicts;
//   - no shell snapshot and no login shell, so the unsandboxed outer
//     shell only runs our quoted line and sources no profile.
func Flags(exe string, tui bool) []string {
	hook := fmt.Sprintf(`hooks.PreToolUse=[{matcher="*",hooks=[{type="command",command=%s}]}]`, tomlString(HookCommand(exe)))
	f := []string{
		"--dangerously-bypass-approvals-and-sandbox",
		"--dangerously-bypass-hook-trust",
		"--disable", "shell_snapshot",
		"-c", "allow_login_shell=false",
		"-c", hook,
	}
	if tui {
		f = append(f, "--no-daemon")
	}
	return f
}

// Prepare inserts the flags after the subcommand (if any) and before the
// rest of the user's arguments.
func (Agent) Prepare(s agents.Session) (agents.Plan, error) {
	sub := ""
	rest := s.Args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") && sessionCommands[rest[0]] {
		sub, rest = rest[0], rest[1:]
	} else if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") && isSubcommand(rest[0]) {
		return agents.Plan{}, fmt.Errorf("codex %s does not run under lite-sandbox launch (it takes no routing hook); run it directly, or use: codex, codex exec, codex resume, codex fork", rest[0])
	}
	argv := []string{s.Agent.Path}
	if sub != "" {
		argv = append(argv, sub)
	}
	argv = append(argv, Flags(s.Exe, tuiCommands[sub])...)
	argv = append(argv, rest...)
	return agents.Plan{Argv: argv}, nil
}

// isSubcommand tells Codex's other subcommands from a prompt.
func isSubcommand(w string) bool {
	return slices.Contains([]string{"agents", "review", "login", "logout", "mcp", "plugin", "app-server",
		"remote-control", "completion", "update", "doctor", "sandbox", "debug", "apply", "a", "queue",
		"archive", "delete", "migrate-rollouts", "migrate-nfs-db", "unarchive", "cloud", "exec-server",
		"features", "help"}, w)
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // JSON escapes are valid TOML basic-string escapes
	return string(b)
}

// hookInput is the part of Codex's PreToolUse input the hook reads.
type hookInput struct {
	HookEventName string `json:"hook_event_name"`
	ToolName      string `json:"tool_name"`
	ToolInput     struct {
		Command *string `json:"command"`
	} `json:"tool_input"`
}

type hookOutput struct {
	HookSpecificOutput hookDecision `json:"hookSpecificOutput"`
}

type hookDecision struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             *map[string]any `json:"updatedInput,omitempty"`
}

// Hook answers one PreToolUse call. Only tool_name "Bash" (every shell
// tool, exec_command included) is a command: apply_patch also sends a
// "command" (the patch), and is left alone with no output. A shell call
// the validator allows becomes `'<shim>' -c '<command>'`, which the shim
// judges again and runs in the sandbox; a denied one gets the
// validator's one line as the reason, and nothing runs. Anything
// unexpected denies.
func (Agent) Hook(in []byte, check agents.Checker, shim string) ([]byte, int) {
	var h hookInput
	if err := json.Unmarshal(in, &h); err != nil {
		return deny("lite-sandbox: the hook input is not valid JSON; the command was not run: " + err.Error())
	}
	if h.ToolName != "Bash" {
		return nil, 0
	}
	if h.ToolInput.Command == nil {
		return deny("lite-sandbox: a shell tool call without a command; not run")
	}
	cmd := *h.ToolInput.Command
	if v := check(cmd); !v.Allowed {
		return deny(v.Message)
	}
	upd := map[string]any{"command": agents.ShellQuote(shim) + " -c " + agents.ShellQuote(cmd)}
	b, _ := json.Marshal(hookOutput{hookDecision{
		HookEventName:      "PreToolUse",
		PermissionDecision: "allow",
		UpdatedInput:       &upd,
	}})
	return append(b, '\n'), 0
}

func deny(reason string) ([]byte, int) {
	b, _ := json.Marshal(hookOutput{hookDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       "deny",
		PermissionDecisionReason: reason,
	}})
	return append(b, '\n'), 0
}
