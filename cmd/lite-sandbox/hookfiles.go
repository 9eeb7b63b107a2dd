// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/internal/contract"
	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/sandbox"
	"github.com/lite-sandbox/lite-sandbox/sandbox/pathjudge"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// fileHooker adapts an agents.FileHooker to the Hooker call in HookCmd,
// adding the path judge over the session's frozen policy.
type fileHooker struct {
	agents.FileHooker
	judge func(a agents.FileAccess, p, cwd string) agents.Verdict
}

func (f fileHooker) Hook(in []byte, check agents.Checker, shim string) ([]byte, int) {
	return f.HookFiles(in, check, f.judge, shim)
}

// ringView is what the session's agent ring shows (written by launch),
// or nil outside a ring.
func ringView(cfg *config.Config) []string {
	if cfg.Session == nil {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(cfg.Session.Dir, contract.RingViewName))
	if err != nil {
		return nil
	}
	var v struct {
		Read []string `json:"read"`
	}
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return v.Read
}

// judge is the path judge (pathjudge.Judge) over the sandbox spec of
// the session's frozen policy, the same policy the command sandbox
// applies. Without a loaded policy (the hook could not judge) every
// path is refused.
func (c *HookCmd) judge(a agents.FileAccess, p, cwd string) agents.Verdict {
	if c.config == nil {
		return agents.Verdict{Message: "lite-sandbox: the hook could not load the session's policy, so the file tool was refused"}
	}
	if c.spec == nil {
		cfg := c.config
		spec, err := cfg.Policy.SandboxSpec(cfg.Workspace, cfg.Home, "")
		if err != nil {
			return agents.Verdict{Message: esc.Sprintf("lite-sandbox: the hook could not build the session's sandbox, so the file tool was refused: %v", err)}
		}
		sandbox.DetectHost(&spec) // core.hooksPath targets are protected too
		c.spec = &spec
	}
	j := pathjudge.Judge{Spec: *c.spec, Visible: ringView(c.config)}
	if ow, ok := c.adapter.(agents.OwnWriter); ok {
		j.AgentWrite = ow.OwnWrites(c.spec.Home)
	}
	acc, ok := sandboxAccess(a)
	if !ok {
		return agents.Verdict{Message: fmt.Sprintf("lite-sandbox: the hook does not know file access %d, so the file tool was refused", a)}
	}
	v := j.Judge(acc, p, cwd)
	return agents.Verdict{Allowed: v.Allowed, Message: v.Reason}
}

// sandboxAccess is the one place an agent's file access becomes the path
// judge's: agents stays a leaf package (it imports nothing of ours), so
// it has a type of its own. An unknown value is refused, never read as
// another access.
func sandboxAccess(a agents.FileAccess) (sandbox.Access, bool) {
	switch a {
	case agents.FileRead:
		return sandbox.Read, true
	case agents.FileSearch:
		return sandbox.Search, true
	case agents.FileWrite:
		return sandbox.Write, true
	}
	return 0, false
}
