// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

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
	r := s.result
	if r.Decision == policy.Ask {
		if s.ask(r) {
			return nil
		}
		s.audit("", -1)
		return &exit.Error{Code: exit.Denied, Err: errors.New(s.askRefusal(r) + where)}
	}
	s.audit("", -1)
	return &exit.Error{Code: exit.Denied, Err: errors.New(s.DenialMessage(r) + where)}
}

// question is r's question about the judged command.
func (s *Shim) question(r validator.Result, command, cwd string) approval.Question {
	return approval.Question{Rule: r.RuleID, Reason: r.Reason, Hint: r.Hint, Command: command, Shape: r.Command, Cwd: cwd}
}

// ask asks a person about the judged command and records the answer
// for the audit record.
func (s *Shim) ask(r validator.Result) bool {
	if s.approvals == nil {
		s.answer = approval.Answer{How: approval.NoOne}
		return false
	}
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	s.answer = s.approvals.Decide(ctx, s.question(r, s.judged, s.Cwd), s.agentProcess(), s.stderr)
	return s.answer.Yes()
}

// askRefusal is the line the model reads when nobody said yes.
func (s *Shim) askRefusal(r validator.Result) string {
	var why string
	switch a := s.answer; {
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
	return "lite-sandbox: " + r.Rule() + " needs a person's yes: " + why + " " + r.Why()
}

// askMessage is the question's text in the agent's own prompt.
func askMessage(r validator.Result) string {
	return "lite-sandbox: " + r.Rule() + " asks a person: " + r.Why()
}

// runAskHook answers `'<exe>' hook ask`, the agent's hook before its
// shell tool runs a command: if the command's decision is `ask`, the
// question is posed (for the agent process, the parent of the hook's
// shim) and the agent is told to show its own prompt; otherwise it is
// told to go on, and the shim judges the command when it comes.
// Nothing here answers the question: see approval.Broker.Decide.
func (s *Shim) runAskHook() error {
	asker, ok := registry.Asker(s.agent)
	if !ok || !s.viaJudge {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: the %s agent has no prompt for questions", s.agent)}
	}
	s.start = time.Now()
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
	posed := false
	if r.Decision == policy.Ask && s.approvals != nil {
		posed = s.approvals.Pose(s.question(r, cmd, cwd), s.agentProcess())
	}
	if _, err := s.stdout.Write(asker.AskOutput(posed, askMessage(r))); err != nil {
		return &exit.Error{Code: exit.HookBlock, Err: fmt.Errorf("lite-sandbox: ask hook: %w", err)}
	}
	return nil
}
