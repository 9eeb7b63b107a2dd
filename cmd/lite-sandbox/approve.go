// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/launch"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
)

// ApproveCmd is `lite-sandbox approve`: a person's answers to the
// questions of `ask` rules, from another terminal, for the sessions of
// this user (docs/validator.md §8). The sockets it talks to are in the
// sessions' runtime root, which neither ring shows.
type ApproveCmd struct {
	List ApproveListCmd `cmd:"" default:"1" help:"List the questions waiting for a person (the default)."`
	Show ApproveShowCmd `cmd:"" help:"Show one question whole."`
	Yes  ApproveYesCmd  `cmd:"" help:"Say yes: run the command once, or with --session also the same rule's same command for the rest of its session."`
	No   ApproveNoCmd   `cmd:"" help:"Say no: the command is refused, and the model is told a person said no."`
}

// ApproveListCmd lists the pending questions.
type ApproveListCmd struct{}

// Run prints one line per question.
func (ApproveListCmd) Run(io stdio) error {
	qs, err := approval.List(launch.RuntimeRoot())
	if err != nil {
		return &exit.Error{Code: exit.Sandbox, Err: err}
	}
	if len(qs) == 0 {
		fmt.Fprintln(io.out, "no questions are waiting")
		return nil
	}
	tw := tabwriter.NewWriter(io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSESSION\tWAITING\tRULE\tCOMMAND")
	for _, q := range qs {
		esc.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", q.ID, q.Session, time.Since(q.Asked).Round(time.Second), q.Rule, short(q.Command, 80))
	}
	return tw.Flush()
}

// ApproveShowCmd prints one question.
type ApproveShowCmd struct {
	ID string `arg:"" help:"The question's id (lite-sandbox approve list)."`
}

// Run prints the question's fields.
func (c ApproveShowCmd) Run(io stdio) error {
	q, err := findQuestion(c.ID)
	if err != nil {
		return err
	}
	esc.Fprintf(io.out, "id:       %s\nsession:  %s\nasked:    %s\nrule:     %s\nreason:   %s\n", q.ID, q.Session, q.Asked.Local().Format("2006-01-02 15:04:05"), q.Rule, q.Reason)
	if q.Hint != "" {
		esc.Fprintf(io.out, "hint:     %s\n", q.Hint)
	}
	esc.Fprintf(io.out, "cwd:      %s\ncommand:  %s\nmatched:  %s\n", q.Cwd, q.Command, q.Shape)
	return nil
}

// ApproveYesCmd says yes.
type ApproveYesCmd struct {
	ID      string `arg:"" help:"The question's id (lite-sandbox approve list)."`
	Session bool   `help:"Also say yes to this rule for the same command (its matched shape) for the rest of the session."`
}

// Run answers the question.
func (c ApproveYesCmd) Run(io stdio) error {
	r := approval.Once
	if c.Session {
		r = approval.ForSession
	}
	return answer(io, c.ID, r)
}

// ApproveNoCmd says no.
type ApproveNoCmd struct {
	ID string `arg:"" help:"The question's id (lite-sandbox approve list)."`
}

// Run answers the question.
func (c ApproveNoCmd) Run(io stdio) error { return answer(io, c.ID, approval.No) }

func answer(io stdio, id string, r approval.Reply) error {
	if err := approval.Send(launch.RuntimeRoot(), id, r); err != nil {
		return approveError(err)
	}
	esc.Fprintf(io.out, "answered %s: %s\n", id, r)
	return nil
}

func findQuestion(id string) (approval.Question, error) {
	qs, err := approval.List(launch.RuntimeRoot())
	if err != nil {
		return approval.Question{}, &exit.Error{Code: exit.Sandbox, Err: err}
	}
	for _, q := range qs {
		if q.ID == id {
			return q, nil
		}
	}
	return approval.Question{}, approveError(fmt.Errorf("approve %s: %w", id, approval.ErrUnknown))
}

func approveError(err error) error {
	if errors.Is(err, approval.ErrUnknown) {
		return &exit.Error{Code: exit.Usage, Err: err}
	}
	return &exit.Error{Code: exit.Sandbox, Err: err}
}

// short is s on one line of at most n bytes for a table cell: what a
// terminal would act on shown escaped (internal/esc; a newline as \n, so
// a command from inside can hide nothing), then runs of spaces made one.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(esc.Text(s)), " ")
	if len(s) > n {
		cut := n - 3
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
