// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
)

// LogCmd is `lite-sandbox log [--session ID] [--all] [--json] [-f] [--since WHEN]`.
type LogCmd struct {
	Session string `help:"The session whose commands to show (default: the last session)." placeholder:"ID"`
	All     bool   `help:"Show every command of the log, sessions or not."`
	JSON    bool   `name:"json" help:"One JSON record per line."`
	Follow  bool   `short:"f" help:"Then print new records as they are appended, until interrupted (of session ID when given; with --all every record; else those of any session)."`
	Since   string `help:"Only records from this time on: a duration ago (10m, 2h) or a time (2026-12-01T10:00:00Z, '2026-12-01 10:00', 2026-12-01)." placeholder:"WHEN"`
}

// Run prints the commands.
func (c *LogCmd) Run(g *Globals, io stdio) error {
	since, err := parseSince(c.Since, time.Now())
	if err != nil {
		return &exit.Error{Code: exit.Usage, Err: err}
	}
	dir, err := audit.Dir(os.Getenv)
	if err != nil {
		return &exit.Error{Code: exit.Failed, Err: err}
	}
	r, err := audit.OpenReader(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(io.err, "lite-sandbox: no commands logged yet")
			return nil
		}
		return &exit.Error{Code: exit.Failed, Err: err}
	}
	defer r.Close()
	recs, err := r.Next()
	if err != nil {
		return &exit.Error{Code: exit.Failed, Err: err}
	}
	keep := func(rec audit.Record) bool { return !rec.Time.Before(since) }
	switch {
	case c.All:
	case c.Session != "" || !c.Follow:
		id := c.Session
		if id == "" {
			id = audit.LastSession(recs)
		}
		if id == "" {
			fmt.Fprintln(io.err, "lite-sandbox: no session logged yet (use --all for commands run outside sessions)")
			return nil
		}
		keep = func(rec audit.Record) bool { return rec.Session == id && !rec.Time.Before(since) }
		if !c.Follow && !slices.ContainsFunc(recs, func(rec audit.Record) bool { return rec.Session == id }) {
			return &exit.Error{Code: exit.Failed, Err: fmt.Errorf("no commands of session %s in %s", id, dir)}
		}
	default:
		// Following without a session: the last session's records, then
		// those of every session, a new one included.
		last := audit.LastSession(recs)
		recs = slices.DeleteFunc(recs, func(rec audit.Record) bool { return rec.Session != last })
		keep = func(rec audit.Record) bool { return rec.Session != "" && !rec.Time.Before(since) }
	}
	p := &logPrinter{w: io.out, json: c.JSON}
	if err := p.print(slices.DeleteFunc(recs, func(rec audit.Record) bool { return !keep(rec) })); err != nil {
		return err
	}
	if !c.Follow {
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return r.Follow(ctx, followPoll, func(recs []audit.Record) error {
		return p.print(slices.DeleteFunc(recs, func(rec audit.Record) bool { return !keep(rec) }))
	})
}

// followPoll is how often `log -f` looks for new records.
const followPoll = 250 * time.Millisecond

// logPrinter prints records as a table (its header once) or as JSON.
type logPrinter struct {
	w      io.Writer
	json   bool
	header bool
}

func (p *logPrinter) print(recs []audit.Record) error {
	if p.json {
		enc := json.NewEncoder(p.w)
		enc.SetEscapeHTML(false)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(p.w, 0, 4, 2, ' ', 0)
	if !p.header {
		p.header = true
		fmt.Fprintln(tw, "TIME\tSESSION\tDECISION\tRULE\tSTATUS\tMS\tCOMMAND")
	}
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
		cmd := short(r.Command, 80)
		decision, answered := answerText(r)
		esc.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f\t%s%s\n", r.Time.Local().Format("2006-01-02 15:04:05"),
			sess, decision, rule, status, r.DurationMS, cmd, answered)
	}
	return tw.Flush()
}

// answerText is an `ask` record's decision with its answer ("ask:once",
// "ask:no", "ask:timeout", "ask:none") and, after the command, who
// answered how and when.
func answerText(r audit.Record) (decision, answered string) {
	if r.Decision != "ask" || r.AnsweredHow == "" {
		return r.Decision, ""
	}
	a := r.Answer
	if a == "" {
		a = r.AnsweredHow
	}
	decision = "ask:" + a
	if r.AnsweredBy != "" {
		answered = "  [" + r.AnsweredHow + ": " + r.AnsweredBy
		if t, err := time.Parse(time.RFC3339Nano, r.AnsweredAt); err == nil {
			answered += ", " + t.Local().Format("15:04:05")
		}
		answered += "]"
	}
	return decision, answered
}

// parseSince reads --since: "" (no bound), a duration before now, or a
// time (RFC 3339, or a local date with an optional time of day).
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (10m, 2h) or a time (2026-12-01T10:00:00Z, 2026-12-01 10:00, 2026-12-01)", s)
}
