// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// LogCmd is `lite-sandbox log [--session ID] [--json]`.
type LogCmd struct {
	Session string `help:"The session whose commands to show (default: the last session)." placeholder:"ID"`
	All     bool   `help:"Show every command of the log, sessions or not."`
	JSON    bool   `name:"json" help:"One JSON record per line."`
}

// Run prints the commands.
func (c *LogCmd) Run(g *Globals, io stdio) error {
	dir, err := audit.Dir(os.Getenv)
	if err != nil {
		return &exit.Error{Code: exit.Failed, Err: err}
	}
	recs, err := audit.Read(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(io.err, "lite-sandbox: no commands logged yet")
			return nil
		}
		return &exit.Error{Code: exit.Failed, Err: err}
	}
	if !c.All {
		id := c.Session
		if id == "" {
			id = audit.LastSession(recs)
		}
		if id == "" {
			fmt.Fprintln(io.err, "lite-sandbox: no session logged yet (use --all for commands run outside sessions)")
			return nil
		}
		var sel []audit.Record
		for _, r := range recs {
			if r.Session == id {
				sel = append(sel, r)
			}
		}
		if len(sel) == 0 {
			return &exit.Error{Code: exit.Failed, Err: fmt.Errorf("no commands of session %s in %s", id, dir)}
		}
		recs = sel
	}
	if c.JSON {
		enc := json.NewEncoder(io.out)
		enc.SetEscapeHTML(false)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tSESSION\tDECISION\tRULE\tSTATUS\tMS\tCOMMAND")
	for _, r := range recs {
		status := fmt.Sprint(r.Status)
		if r.Status < 0 {
			status = "-"
		}
		rule := r.Rule
		if rule == "" {
			rule = "-"
		}
		sess := r.Session
		if sess == "" {
			sess = "-"
		}
		cmd := strings.Join(strings.Fields(r.Command), " ")
		if len(cmd) > 80 {
			cmd = cmd[:77] + "..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n", r.Time.Local().Format("2006-01-02 15:04:05"),
			sess, r.Decision, rule, status, r.DurationMS, cmd)
	}
	return tw.Flush()
}
