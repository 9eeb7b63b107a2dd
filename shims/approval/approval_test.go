// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package approval

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// clock is a settable time for the broker; term is the confirm line
// of these tests: it answers with say (or, when err is set, fails) and
// notes what it showed.
type clock struct{ now time.Time }

type term struct {
	say   bool
	err   error
	shown [][]string
}

func (f *term) confirm(ctx context.Context, lines []string) (bool, error) {
	f.shown = append(f.shown, lines)
	return f.say, f.err
}

// agentPid is the agent process of these tests.
const agentPid = 7

func newBroker(c *clock, wait time.Duration, prompt bool, f *term) *Broker {
	b := New(Options{Session: "s-test", Wait: wait, Prompt: prompt, Confirm: f.confirm, IsAgent: func(pid int) bool { return pid == agentPid }})
	b.now = func() time.Time { return c.now }
	return b
}

var q = Question{Rule: "pkg.publish", Reason: "r", Command: "npm publish", Shape: "npm publish", Cwd: "/w"}

// TestAsk: the agent's question is put on the confirm line, and a yes
// there lets the same command of the same process through once; a no,
// no answer, a question from another process of the ring (escape class
// 63: never shown) or for another command lets nothing through.
func TestAsk(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name     string
		askPid   int
		say      bool
		err      error
		runPid   int
		cmd      string
		prompt   bool
		wantAsk  How
		wantRun  How
		wantShow bool
	}{
		{"yes", agentPid, true, nil, agentPid, "npm publish", true, ByConfirm, ByConfirm, true},
		{"no", agentPid, false, nil, agentPid, "npm publish", true, ByConfirm, NoOne, true},
		{"timeout", agentPid, true, context.DeadlineExceeded, agentPid, "npm publish", true, Timeout, NoOne, true},
		{"no terminal", agentPid, true, errors.New("no terminal to ask on"), agentPid, "npm publish", true, NoOne, NoOne, true},
		{"asked by another process", 8, true, nil, 8, "npm publish", true, NotAgent, NoOne, false},
		{"yes, run by another process", agentPid, true, nil, 8, "npm publish", true, ByConfirm, NoOne, true},
		{"yes, another command run", agentPid, true, nil, agentPid, "npm publish --tag x", true, ByConfirm, NoOne, true},
		{"session without a prompt", agentPid, true, nil, agentPid, "npm publish", false, NoOne, NoOne, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ck, f := &clock{now: t0}, &term{say: c.say, err: c.err}
			b := newBroker(ck, 0, c.prompt, f)
			a := b.Ask(context.Background(), q, c.askPid)
			if a.How != c.wantAsk || a.Yes() != (c.wantAsk == ByConfirm && c.say) {
				t.Fatalf("Ask = %+v, want %s", a, c.wantAsk)
			}
			if shown := len(f.shown) == 1; shown != c.wantShow {
				t.Fatalf("the confirm line shown: %v, want %v", shown, c.wantShow)
			}
			if c.wantShow && !strings.Contains(strings.Join(f.shown[0], "\n"), "run: npm publish") {
				t.Errorf("the confirm line does not show the command: %q", f.shown[0])
			}
			ck.now = t0.Add(2 * time.Second)
			run := q
			run.Command = c.cmd
			a = b.Decide(context.Background(), run, c.runPid, nil)
			if a.How != c.wantRun || a.Yes() != (c.wantRun == ByConfirm) {
				t.Fatalf("Decide = %+v, want %s", a, c.wantRun)
			}
			if a.Yes() {
				if a.By != ConfirmedBy {
					t.Errorf("answered by %q", a.By)
				}
				// Once a yes: the same command again is a new question.
				if a := b.Decide(context.Background(), run, c.runPid, nil); a.Yes() {
					t.Errorf("a yes used twice: %+v", a)
				}
			}
		})
	}
}

// TestAskTwice: a command the agent asks about twice (two calls of one
// reply) runs twice after two yeses, not a third time; a no for the
// same text voids the yeses kept for it (escape class 64), and a yes
// kept too long is void.
func TestAskTwice(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ck, f := &clock{now: t0}, &term{say: true}
	b := newBroker(ck, 0, true, f)
	b.Ask(context.Background(), q, agentPid)
	b.Ask(context.Background(), q, agentPid)
	for i, want := range []bool{true, true, false} {
		if a := b.Decide(context.Background(), q, agentPid, nil); a.Yes() != want {
			t.Errorf("run %d: %+v, want yes=%v", i+1, a, want)
		}
	}
	b.Ask(context.Background(), q, agentPid)
	f.say = false
	b.Ask(context.Background(), q, agentPid)
	if a := b.Decide(context.Background(), q, agentPid, nil); a.Yes() {
		t.Errorf("a yes, then a no for the same text: it ran: %+v", a)
	}
	f.say = true
	b.Ask(context.Background(), q, agentPid)
	ck.now = t0.Add(yesFor + time.Second)
	if a := b.Decide(context.Background(), q, agentPid, nil); a.Yes() {
		t.Errorf("a yes kept past yesFor was used: %+v", a)
	}
}

// TestApprove: a waiting command gets the approver's answer; "yes for
// the session" answers the same rule and shape later, not another shape;
// no answer within the wait, or the command's end, refuses.
func TestApprove(t *testing.T) {
	ck := &clock{now: time.Now()}
	b := newBroker(ck, time.Minute, false, &term{})
	answer := func(r Reply) {
		for {
			if p := b.Pending(); len(p) == 1 {
				if p[0].Session != "s-test" || p[0].ID == "" {
					t.Errorf("pending question %+v", p[0])
				}
				if err := b.Answer(p[0].ID, r, "uid 1"); err != nil {
					t.Error(err)
				}
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	var notify strings.Builder
	go answer(No)
	if a := b.Decide(context.Background(), q, 1, &notify); a.Yes() || a.Reply != No || a.How != ByApprove || a.By != "uid 1" {
		t.Errorf("no: %+v", a)
	}
	if !strings.Contains(notify.String(), "lite-sandbox approve yes ") {
		t.Errorf("the waiting line: %q", notify.String())
	}
	go answer(ForSession)
	if a := b.Decide(context.Background(), q, 1, nil); a.Reply != ForSession {
		t.Errorf("session: %+v", a)
	}
	if a := b.Decide(context.Background(), q, 2, nil); a.How != ByGrant || !a.Yes() {
		t.Errorf("the same shape after a session grant: %+v", a)
	}
	if a := b.Ask(context.Background(), q, agentPid); a.How != ByGrant {
		t.Errorf("a granted question is asked again: %+v", a)
	}
	other := q
	other.Shape, other.Command = "npm publish --tag beta", "npm publish --tag beta"
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(b.Pending()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if a := b.Decide(ctx, other, 1, nil); a.Yes() || a.How != Timeout {
		t.Errorf("another shape after a session grant, its command gone: %+v", a)
	}
	if err := b.Answer("nope", Once, "x"); err == nil {
		t.Errorf("an unknown question was answered")
	}
	short := newBroker(ck, time.Millisecond, false, &term{})
	if a := short.Decide(context.Background(), q, 1, nil); a.How != Timeout {
		t.Errorf("timeout: %+v", a)
	}
}

// TestGrantEveryFinding: a line with two ask findings is granted only
// when each of them was; "yes for this session" to that line grants
// both, and a grant of one shape never lets another on the same line
// ride along (issue #26, finding 4).
func TestGrantEveryFinding(t *testing.T) {
	t.Parallel()
	ck := &clock{now: time.Now()}
	b := newBroker(ck, time.Minute, false, &term{})
	both := Question{Rule: "pkg.publish,infra.apply", Command: "npm publish && terraform destroy -auto-approve",
		Shape: "npm publish; terraform destroy -auto-approve", Findings: []Finding{
			{Rule: "pkg.publish", Shape: "npm publish"}, {Rule: "infra.apply", Shape: "terraform destroy -auto-approve"}}}
	sameRule := Question{Rule: "pkg.publish", Command: "npm publish; npm publish --tag evil",
		Shape: "npm publish; npm publish --tag evil", Findings: []Finding{
			{Rule: "pkg.publish", Shape: "npm publish"}, {Rule: "pkg.publish", Shape: "npm publish --tag evil"}}}
	answer := func(r Reply) {
		for {
			if p := b.Pending(); len(p) == 1 {
				if err := b.Answer(p[0].ID, r, "uid 1"); err != nil {
					t.Error(err)
				}
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	go answer(ForSession)
	if a := b.Decide(context.Background(), q, 1, nil); a.Reply != ForSession {
		t.Fatalf("session grant of npm publish: %+v", a)
	}
	// Control: the granted shape alone passes.
	if a := b.Decide(context.Background(), q, 1, nil); a.How != ByGrant {
		t.Fatalf("the granted shape: %+v", a)
	}
	for _, other := range []Question{both, sameRule} {
		if a := b.Ask(context.Background(), other, 1); a.How != NoOne { // no prompt in this broker
			t.Fatalf("ask %q: %+v", other.Command, a)
		}
		go answer(No)
		if a := b.Decide(context.Background(), other, 1, nil); a.How != ByApprove || a.Yes() {
			t.Errorf("%q after a grant of npm publish alone: %+v, want asked (and no)", other.Command, a)
		}
	}
	go answer(ForSession)
	if a := b.Decide(context.Background(), both, 1, nil); a.Reply != ForSession {
		t.Fatalf("session grant of both: %+v", a)
	}
	if a := b.Decide(context.Background(), both, 1, nil); a.How != ByGrant {
		t.Errorf("the line granted as a whole: %+v", a)
	}
	tf := Question{Rule: "infra.apply", Command: "terraform destroy -auto-approve", Shape: "terraform destroy -auto-approve"}
	if a := b.Decide(context.Background(), tf, 1, nil); a.How != ByGrant {
		t.Errorf("a shape the person saw in the line, alone: %+v", a)
	}
}

// TestPosedShape: a yes on the confirm line for `bash x.sh` showing one
// shape does not answer the same command when the script now holds
// another shape (issue #26, finding 5).
func TestPosedShape(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	asked := Question{Rule: "pkg.publish", Command: "bash x.sh", Shape: "npm publish"}
	for _, c := range []struct {
		shape string
		yes   bool
	}{{"npm publish", true}, {"npm publish --tag evil", false}} {
		ck := &clock{now: t0}
		b := newBroker(ck, 0, true, &term{say: true})
		if a := b.Ask(context.Background(), asked, agentPid); !a.Yes() {
			t.Fatalf("the person's yes: %+v", a)
		}
		ck.now = t0.Add(2 * time.Second)
		run := asked
		run.Shape = c.shape
		if a := b.Decide(context.Background(), run, agentPid, nil); a.Yes() != c.yes {
			t.Errorf("shape %q: %+v, want yes=%v", c.shape, a, c.yes)
		}
	}
}
