// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package crush is the adapter for Crush. Crush runs the bash tool in an
// in-process shell interpreter (builtins and redirections never exec
// anything), so neither $SHELL nor a PATH shim can route it; the route is
// a PreToolUse hook, `lite-sandbox hook crush`, in the crush.json of a
// per-session data directory (-D), the highest-ranking config file, that
// rewrites the bash tool's command to `'<shim>' -c '<command>'`
// (docs/agents.md §5).
package crush

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Agent is the Crush adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "crush".
func (Agent) Name() string { return info.Name }

// info is the Crush CLI.
var info = agents.Info{Name: "crush", Binary: "crush", Install: "npm install -g @charmland/crush"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `crush --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// dataDir is the session's Crush data directory.
func dataDir(s agents.Session) string { return filepath.Join(s.Dir, "crush") }

// HookCommand is the hook's command line, which Crush's interpreter
// runs. The guard matters: a missing path-prefixed program is a fatal
// interpreter error that Crush ignores, and the original command would
// then run unsandboxed (A6); `[ -x ... ] && ... || exit 2` blocks
// instead. Any other failure of the hook also exits 2.
func HookCommand(exe string) string {
	q := agents.ShellQuote(exe)
	return fmt.Sprintf("[ -x %s ] && %s hook crush || exit 2", q, q)
}

// Config is the data directory's crush.json. Files merge with hook lists
// concatenated, and this one is read last: a project's own PreToolUse
// hook cannot replace our rewrite (A3).
func Config(exe string) ([]byte, error) {
	v := map[string]any{
		"hooks": map[string]any{
			"PreToolUse": []any{map[string]any{
				"name":    "lite-sandbox",
				"matcher": hookMatcher,
				"timeout": 15,
				"command": HookCommand(exe),
			}},
		},
		// Sub-agents never fire hooks (docs/agents.md §8.3); the list
		// concatenates, so a project cannot enable them again.
		"options": map[string]any{"disabled_tools": disabledTools},
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("crush config: %w", err)
	}
	return append(b, '\n'), nil
}

// projectFiles run code when Crush starts (crushrc is a shell script;
// `$(...)` in crush.json values runs at load; hooks, MCP and LSP
// commands are spawned outside the sandbox): A4.
var projectFiles = []string{"crush.json", ".crush.json", "crushrc", ".crushrc"}

// ProjectFiles returns the Crush configuration files Crush would read
// from the workspace and its parents up to the git root (the workspace
// alone when it is not in a git repository), and /etc/crush/crush.json.
func ProjectFiles(workspace string) []string {
	dirs := []string{workspace}
	if root := gitRoot(workspace); root != "" {
		dirs = nil
		for dir := workspace; ; dir = filepath.Dir(dir) {
			dirs = append(dirs, dir)
			if dir == root {
				break
			}
		}
	}
	var found []string
	for _, dir := range dirs {
		for _, n := range projectFiles {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && !inert(p, fi) {
				found = append(found, p)
			}
		}
	}
	if _, err := os.Stat("/etc/crush/crush.json"); err == nil {
		found = append(found, "/etc/crush/crush.json")
	}
	return found
}

// inert tells a file that configures nothing: empty, or an empty JSON
// object. The sandbox's placeholders for protected paths that did not
// exist look like that, and warning about them would cry wolf.
func inert(p string, fi os.FileInfo) bool {
	if fi.Size() > 16 {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	t := strings.TrimSpace(string(b))
	return t == "" || t == "{}"
}

// gitRoot returns the nearest directory at or above dir that holds .git,
// or "".
func gitRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Prepare starts Crush with -D <session>/crush. The user's global config
// (providers, keys) is left alone. CRUSH_CLIENT_SERVER is removed so that
// Crush never attaches to a shared server started without our hook (A10).
func (Agent) Prepare(s agents.Session) (agents.Plan, error) {
	cfg, err := Config(s.Exe)
	if err != nil {
		return agents.Plan{}, err
	}
	dir := dataDir(s)
	p := agents.Plan{
		Argv:  append([]string{s.Agent.Path, "-D", dir}, s.Args...),
		Env:   []string{"CRUSH_CORE_UTILS=false"},
		Unset: []string{"CRUSH_CLIENT_SERVER"},
		Files: []agents.File{{Path: filepath.Join(dir, "crush.json"), Content: cfg}},
	}
	for _, f := range ProjectFiles(s.Workspace) {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s: Crush runs this configuration outside the sandbox when it starts (crushrc scripts, $(...) in values, hooks, MCP and LSP commands); review it before going on", f))
	}
	return p, nil
}

// hookInput is the part of Crush's hook input the hook reads.
type hookInput struct {
	ToolName  string `json:"tool_name"`
	ToolInput struct {
		Command *string `json:"command"`
	} `json:"tool_input"`
}

type hookOutput struct {
	Decision     string         `json:"decision"`
	Reason       string         `json:"reason,omitempty"`
	UpdatedInput map[string]any `json:"updated_input,omitempty"`
}

// Hook answers one PreToolUse call for the bash tool: an allowed command
// becomes `'<shim>' -c '<command>'` (updated_input is merged shallowly,
// so working_dir and run_in_background stay; the shim checks the working
// directory, A7); a denied one exits 2, which blocks the call, with the
// validator's line as the reason. Any error exits 2 too: every other
// status is ignored by Crush and would run the original command.
func (Agent) Hook(in []byte, check agents.Checker, shim string) ([]byte, int) {
	var h hookInput
	if err := json.Unmarshal(in, &h); err != nil {
		return deny("lite-sandbox: the hook input is not valid JSON; the command was not run: " + err.Error())
	}
	if h.ToolName != "bash" {
		return deny(fmt.Sprintf("lite-sandbox: the hook only handles the bash tool, not %q", h.ToolName))
	}
	if h.ToolInput.Command == nil {
		return deny("lite-sandbox: a bash tool call without a command; not run")
	}
	cmd := *h.ToolInput.Command
	if v := check(cmd); !v.Allowed {
		return deny(v.Message)
	}
	b, _ := json.Marshal(hookOutput{
		Decision:     "allow",
		UpdatedInput: map[string]any{"command": agents.ShellQuote(shim) + " -c " + agents.ShellQuote(cmd)},
	})
	return append(b, '\n'), 0
}

// exitBlock is the hook status that makes Crush block the call.
const exitBlock = 2

func deny(reason string) ([]byte, int) {
	b, _ := json.Marshal(hookOutput{Decision: "deny", Reason: reason})
	return append(b, '\n'), exitBlock
}
