// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/agents/registry"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// askHookName is our own hook's name for the agent's prompt: `'<exe>'
// hook ask`, answered here by the session's judge and never run in the
// ring (docs/validator.md §8).
const askHookName = "ask"

// maxHookInput bounds a hook's JSON input.
const maxHookInput = 16 << 20

// held returns the refusal of a command the validator did not allow,
// where says where in its text (a script's line), or nil when an `ask`
// rule's question got a person's yes: the command then runs in the
// command sandbox like any other.
func (s *Shim) held(where string) error {
	r := s.v.result
	if r.Decision == policy.Ask {
		if s.ask(r) {
			return nil
		}
		return &exit.Error{Code: exit.Denied, Err: errors.New(s.askRefusal(r) + where)}
	}
	return &exit.Error{Code: exit.Denied, Err: errors.New(s.DenialMessage(r) + where)}
}

// question is r's question about the judged command: every ask rule's
// finding on the line, so that the person sees them all and a grant
// covers only those (issue #26, finding 4).
func (s *Shim) question(r validator.Result, command, cwd string) approval.Question {
	q := approval.Question{Rule: r.RuleID, Reason: r.Reason, Hint: r.Hint, Command: command, Shape: r.Command, Cwd: cwd}
	if len(r.Asks) < 2 {
		return q
	}
	var rules, shapes, reasons []string
	for _, f := range r.Asks {
		q.Findings = append(q.Findings, approval.Finding{Rule: f.RuleID, Shape: f.Command, Reason: f.Reason})
		shapes = append(shapes, f.Command)
		if !slices.Contains(rules, f.RuleID) {
			rules = append(rules, f.RuleID)
			reasons = append(reasons, f.RuleID+": "+f.Reason)
		}
	}
	// One word for the rules: `approve` lists them in a column.
	q.Rule, q.Shape = strings.Join(rules, ","), strings.Join(shapes, "; ")
	q.Reason = strings.Join(reasons, " ")
	return q
}

// askRules names every rule that asks on the line, and why: the deciding
// one with its hint, then the others.
func askRules(r validator.Result) (rules, why string) {
	rules, why = r.Rule(), r.Why()
	seen := []string{r.RuleID}
	for _, f := range r.Asks {
		if slices.Contains(seen, f.RuleID) {
			continue
		}
		seen = append(seen, f.RuleID)
		rules += ", " + f.RuleID
		why += " " + f.RuleID + ": " + f.Reason
	}
	if n := len(r.Asks); n > 1 {
		var shapes []string
		for _, f := range r.Asks {
			shapes = append(shapes, f.Command)
		}
		why = fmt.Sprintf("%d commands on this line ask (%s). %s", n, strings.Join(shapes, "; "), why)
	}
	return rules, why
}

// ask asks a person about the judged command and records the answer
// for the audit record.
func (s *Shim) ask(r validator.Result) bool {
	if s.approvals == nil {
		s.v.answer = approval.Answer{How: approval.NoOne}
		return false
	}
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	s.v.answer = s.approvals.Decide(ctx, s.question(r, s.v.command, s.Cwd), s.agentProcess(), s.stderr)
	return s.v.answer.Yes()
}

// askRefusal is the line the model reads when nobody said yes.
func (s *Shim) askRefusal(r validator.Result) string {
	var why string
	switch a := s.v.answer; {
	case a.Reply == approval.No:
		why = "The person said no (" + a.By + "). Do not try it another way; ask the user what they want instead."
	case a.How == approval.Timeout:
		why = fmt.Sprintf("Nobody answered within %s, so it was not run.", s.approvals.Wait())
	case s.approvals == nil:
		why = "Outside a session nobody can be asked, so it was not run; a person can run it themselves."
	default:
		why = "Nobody could be asked (this session has no prompt for it and waits 0s), so it was not run. " +
			"To let a person answer next time, launch with --ask-wait 5m and answer from another terminal with `lite-sandbox approve`."
	}
	rules, all := askRules(r)
	return "lite-sandbox: " + rules + " needs a person's yes: " + why + " " + all
}

// askMessage is what the model reads of the question's answer.
func askMessage(r validator.Result, a approval.Answer) string {
	var why string
	switch {
	case a.Yes():
		why = "the person said yes (" + a.By + ")."
	case a.Reply == approval.No:
		why = "the person said no (" + a.By + "); it was not run. Do not try it another way; ask the user what they want instead."
	case a.How == approval.NotAgent:
		why = "only the agent's own hook may ask (" + a.By + "); it was not run."
	case a.How == approval.Timeout:
		why = "nobody answered in time; it was not run."
	default:
		why = "nobody could be asked; it was not run."
	}
	rules, all := askRules(r)
	return "lite-sandbox: " + rules + " asks a person: " + why + " " + all
}

// runAskHook answers `'<exe>' hook ask`, the agent's hook before its
// shell tool runs a command: if the command's decision is `ask`, the
// person is asked on the launcher's confirm line, provided the hook's
// shim was started just now by the agent process itself
// (askerProcess, approval.Broker.Ask),
// and the agent is told yes (the shim then lets that one command
// through) or no; otherwise it is told to go on, and the shim judges
// the command when it comes. A question not answered yes is in the
// audit log (a yes is in the command's record).
func (s *Shim) runAskHook() error {
	asker, ok := registry.Asker(s.agent)
	if !ok || s.judge == nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: the %s agent has no prompt for questions", s.agent)}
	}
	// The hook is a question about a command, not one: only a question
	// not answered yes is recorded (a yes is in the command's record).
	s.v.none = true
	in, err := io.ReadAll(io.LimitReader(s.stdin, maxHookInput))
	if err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: ask hook: %w", err)}
	}
	cmd, cwd, err := asker.AskInput(in)
	if err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: ask hook: %w", err)}
	}
	v := s.validator
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd = s.Cwd
	} else if at, err := v.At(cwd); err == nil {
		v = at
	}
	r := v.Check(cmd)
	answer := agents.AskGoOn
	var msg string
	if r.Decision == policy.Ask && s.approvals != nil && s.approvals.Prompting() {
		ctx := s.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		a := s.approvals.Ask(ctx, s.question(r, cmd, cwd), s.askerProcess())
		switch {
		case a.How == approval.ByGrant:
		case a.Yes():
			answer, msg = agents.AskYes, askMessage(r, a)
		default:
			answer, msg = agents.AskNo, askMessage(r, a)
			s.v.command, s.v.result, s.v.answer, s.Cwd = cmd, r, a, cwd
			s.v.none = false
		}
	}
	if _, err := s.stdout.Write(asker.AskOutput(answer, msg)); err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: ask hook: %w", err)}
	}
	return nil
}
