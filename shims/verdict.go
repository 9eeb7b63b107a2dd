// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/shims/approval"
	"github.com/lite-sandbox/lite-sandbox/shims/audit"
	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

// verdict is what became of one command (#29): what was judged, the
// decision with its rule and reason, a person's answer to an `ask`
// rule, how it ran and its status. Judging and running fill it in;
// [Shim.conclude] writes it to the audit log once, on every path,
// refusals included (docs/commands.md: every judged command is logged),
// as os/exec keeps a Cmd apart from its ProcessState.
type verdict struct {
	start   time.Time
	command string // as judged
	result  validator.Result
	answer  approval.Answer
	// how is how it ran: sandboxed, unsandboxed, off; "" when it did
	// not run. status is its exit status, -1
	// when it did not run.
	how    string
	status int
	// reason is why it did not run when the validator gave none (a
	// working directory outside the workspace, arguments the shim
	// refuses, a sandbox that failed).
	reason string
	// none: there is no command to record (the ask hook told the agent
	// to go on, or said yes: the command's own record follows).
	none bool
}

// replaceError asks conclude to replace the process (run: an execve)
// once the verdict is written: a command run unsandboxed (mode off, no
// backend in mode auto).
type replaceError struct {
	run func() error
}

func (e *replaceError) Error() string { return "replace the process" }

// conclude writes the command's verdict, the one audit call (#29), and
// returns err, the outcome of judging and running it: a refusal, the
// command's status, or a process to become.
func (s *Shim) conclude(err error) error {
	v := &s.v
	var ee *exit.Error
	switch {
	case v.none:
		return err
	case v.how == "" && errors.As(err, &ee) && ee.Err != nil && v.reason == "":
		// Refused before or instead of running: why, unless the
		// validator's rule says it.
		if v.result.Allowed() || v.result.Decision == "" {
			v.reason = ee.Err.Error()
		}
	}
	if v.how == "" && (v.result.Decision == "" || v.result.Allowed() && errors.As(err, &ee) && (ee.Code == exit.Denied || ee.Code == exit.Usage)) {
		// Refused before or after the validator judged it (its
		// arguments, its working directory, the request): a deny. A
		// command allowed that the sandbox failed to run stays allowed,
		// with why it did not run.
		v.result.Decision = policy.Deny
	}
	if v.how == "" {
		v.status = -1
	}
	s.record()
	var r *replaceError
	if errors.As(err, &r) {
		return r.run()
	}
	return err
}

// record appends the verdict to the user's audit log. A log that
// cannot be written is reported once on stderr and never stops the
// command.
func (s *Shim) record() {
	dir, off, err := s.auditDir()
	if off {
		return
	}
	if err == nil {
		err = audit.Append(dir, s.auditRecord())
	}
	if err != nil {
		esc.Fprintf(s.stderr, "lite-sandbox: warning: %v\n", err)
	}
}

// auditRecord is the verdict as the audit log keeps it. In a session
// this runs in the judge, in the launcher: the record comes from what
// was judged and run (judge_linux.go).
func (s *Shim) auditRecord() audit.Record {
	v := s.v
	r := audit.Record{Time: v.start, Workspace: s.Workspace, Cwd: s.Cwd, Command: v.command,
		Decision: v.result.Decision, Rule: v.result.RuleID, Reason: v.reason, Sandbox: v.how, Status: v.status,
		CommandID: s.egressID} // joins the command with its connections (network = "allow")
	if r.Reason == "" && !v.result.Allowed() {
		r.Reason = v.result.Reason
	}
	if v.result.Decision == policy.Ask {
		r.Answer, r.AnsweredHow, r.AnsweredBy = string(v.answer.Reply), string(v.answer.How), v.answer.By
		if !v.answer.At.IsZero() {
			r.AnsweredAt = v.answer.At.UTC().Format(time.RFC3339Nano)
		}
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	if s.session != nil {
		r.Session = filepath.Base(s.session.Dir)
	}
	r.DurationMS = float64(time.Since(r.Time).Microseconds()) / 1000
	return r
}
