// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package gemini is the adapter for Gemini CLI (@google/gemini-cli).
// Gemini runs its shell tool (run_shell_command) as `bash -c CMD`, bash
// looked up on PATH (measured in 0.61.0's bundle:
// getShellConfiguration), and so do its hooks and `!cmd`: in the agent
// ring every shell name is the shim, and without the ring the session's
// bin directory (the shim under shell names) goes first on PATH. Its
// own sandboxes are switched off so that ours is the one in force: the
// container sandbox (tools.sandbox, GEMINI_SANDBOX, --sandbox) by
// SANDBOX, which tells Gemini it already runs in one, and its tool
// sandboxing (security.toolSandboxing) by a system settings file
// (GEMINI_CLI_SYSTEM_SETTINGS_PATH), which outranks the user's and the
// project's settings (docs/agents.md §9).
package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// Agent is the Gemini CLI adapter.
type Agent struct{}

// New returns the adapter.
func New() Agent { return Agent{} }

// Name is "gemini".
func (Agent) Name() string { return info.Name }

// info is the gemini CLI.
var info = agents.Info{Name: "gemini", Binary: "gemini", Install: "npm install -g @google/gemini-cli"}

// Info returns the CLI's binary and install command.
func (Agent) Info() agents.Info { return info }

// Detect runs `gemini --version`.
func (Agent) Detect(ctx context.Context) (agents.Detected, error) {
	return info.DetectBinary(ctx, "--version")
}

// sandboxEnv is what SANDBOX says: any value makes Gemini skip starting
// its container sandbox (getSandboxCommand returns "" and the relaunch
// in a container is skipped), and tells its model it is sandboxed.
const sandboxEnv = "lite-sandbox"

// defaultSystemSettings is Gemini's system settings file on Linux, which
// GEMINI_CLI_SYSTEM_SETTINGS_PATH replaces: its keys are kept.
const defaultSystemSettings = "/etc/gemini-cli/settings.json"

// SystemSettings returns the session's system settings: the system
// file's own keys (an administrator's) with Gemini's sandboxes off.
// System settings are merged last, so no user or project file (a
// repository's .gemini/settings.json) can switch them on again.
func SystemSettings(systemFile string) ([]byte, error) {
	v := map[string]any{}
	b, err := os.ReadFile(systemFile)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("gemini: %s: %w", systemFile, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("gemini: reading the system settings: %w", err)
	}
	set(v, false, "tools", "sandbox")
	set(v, false, "security", "toolSandboxing")
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("gemini settings: %w", err)
	}
	return append(out, '\n'), nil
}

// set sets v[keys...] = val, making (or replacing non-object) parents.
func set(v map[string]any, val any, keys ...string) {
	for _, k := range keys[:len(keys)-1] {
		next, ok := v[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			v[k] = next
		}
		v = next
	}
	v[keys[len(keys)-1]] = val
}

// rootOwned says whether Gemini would read a system settings file in
// dir: it skips one, with a warning on every start, unless the file and
// every directory above it are owned by root and writable by nobody
// else (0.61.0: isFileAndDirectorySecureSync), which only a launcher
// run as root with a root-owned runtime directory (/run/user/0) meets.
// Elsewhere nothing is written: SANDBOX alone keeps Gemini's container
// sandbox off, and its tool sandboxing, if a settings file turns it on,
// goes through the shim too and fails closed (docs/agents.md §9).
func rootOwned(dir string) bool {
	if os.Geteuid() != 0 {
		return false
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			// Not made yet (the session's own directories): made by root.
		} else if err != nil || !ownedByRoot(fi) || fi.Mode().Perm()&0o022 != 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// systemFile is the system settings file Gemini would read without us.
func systemFile(s agents.Session) string {
	if p := s.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	return defaultSystemSettings
}

// Prepare writes the system settings (when Gemini would read them) and
// sets the variables. Without the ring, PATH starts with the shim's
// directory: Gemini looks bash up on PATH, not $SHELL.
func (Agent) Prepare(s agents.Session) (agents.Plan, error) {
	return prepare(s, rootOwned(s.Dir))
}

// prepare is Prepare; withSystem says whether Gemini would read a
// system settings file in the session directory.
func prepare(s agents.Session, withSystem bool) (agents.Plan, error) {
	p := agents.Plan{
		Argv: append([]string{s.Agent.Path}, s.Args...),
		Env:  []string{"SANDBOX=" + sandboxEnv},
		// GEMINI_SANDBOX would name a container command; SANDBOX already
		// stops it, and nothing of it should reach the agent's commands.
		Unset: []string{"GEMINI_SANDBOX", "GEMINI_SANDBOX_IMAGE", "SANDBOX_FLAGS"},
	}
	if path := filepath.Join(s.Dir, "gemini", "system-settings.json"); withSystem {
		settings, err := SystemSettings(systemFile(s))
		if err != nil {
			return agents.Plan{}, err
		}
		p.Env = append(p.Env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH="+path)
		p.Files = append(p.Files, agents.File{Path: path, Content: settings})
	}
	if !s.Ring {
		p.Env = append(p.Env, "PATH="+filepath.Dir(s.Shim)+string(os.PathListSeparator)+s.Getenv("PATH"))
	}
	return p, nil
}
