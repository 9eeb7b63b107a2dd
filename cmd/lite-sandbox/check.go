// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/config"
)

// CheckCmd is `lite-sandbox check [--json] -- 'COMMAND'`.
type CheckCmd struct {
	JSON      bool     `help:"Print the decision as JSON."`
	Workspace string   `help:"The workspace the command would run in (default: the current directory)." placeholder:"DIR"`
	Command   []string `arg:"" optional:"" passthrough:"partial" help:"The command string (several arguments are joined with spaces)."`
}

// checkJSON is the stable JSON shape of a decision.
type checkJSON struct {
	Decision string `json:"decision"`
	RuleID   string `json:"rule_id,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Hint     string `json:"hint,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Command  string `json:"command,omitempty"`
}

// Run prints the decision; it exits 0 when allowed, 1 otherwise.
func (c *CheckCmd) Run(g *Globals, io stdio) error {
	args := c.Command
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return &exit.Error{Code: exit.Usage, Err: fmt.Errorf("no command given (usage: lite-sandbox check -- 'COMMAND')")}
	}
	_, v, err := load(config.Options{ConfigFile: g.Config, Workspace: c.Workspace})
	if err != nil {
		return err
	}
	r := v.Check(strings.Join(args, " "))
	if c.JSON {
		b, _ := json.MarshalIndent(checkJSON{r.Decision, r.RuleID, r.Reason, r.Hint, r.Line, r.Col, r.Command}, "", "  ")
		fmt.Fprintln(io.out, string(b))
	} else {
		fmt.Fprintf(io.out, "%s", r.Decision)
		if r.RuleID != "" {
			esc.Fprintf(io.out, " (%s)", r.RuleID)
		}
		fmt.Fprintln(io.out)
		for _, kv := range [][2]string{{"command", r.Command}, {"reason", r.Reason}, {"hint", r.Hint}} {
			if kv[1] != "" {
				esc.Fprintf(io.out, "  %-8s %s\n", kv[0]+":", kv[1])
			}
		}
		if r.Line > 0 {
			fmt.Fprintf(io.out, "  %-8s line %d, column %d\n", "at:", r.Line, r.Col)
		}
		// Every ask finding of the line is asked (docs/validator.md §8).
		for i, f := range r.Asks {
			if i > 0 {
				fmt.Fprintf(io.out, "  %-8s %s: %s\n", "also:", f.RuleID, f.Command)
			}
		}
	}
	if !r.Allowed() {
		return silentStatus(exit.Failed)
	}
	return nil
}
