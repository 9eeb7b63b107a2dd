// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package approval

import (
	"context"
	"strings"
	"testing"
	"time"
)

// clock is a settable time for the broker and the terminal's last key.
type clock struct{ now, key time.Time }

func newBroker(c *clock, wait time.Duration, prompt bool) *Broker {
	b := New(Options{Session: "s-test", Wait: wait, Prompt: prompt, LastInput: func() time.Time { return c.key }})
	b.now = func() time.Time { return c.now }
	return b
}

var q = Question{Rule: "pkg.publish", Reason: "r", Command: "npm publish", Shape: "npm publish"}

// TestPrompt: a question posed in the agent's prompt lets the same
// command of the same process through once, and only after a key at
// the terminal; without the key, from another process, or for another
// command, it is refused (no wait).
func TestPrompt(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		pid     int
		cmd     string
		key     time.Duration // after the question; < 0: before it
		prompt  bool
		want    How
		wantYes bool
	}{
		{"key after the question", 7, "npm publish", time.Second, true, ByPrompt, true},
		{"no key since", 7, "npm publish", -time.Second, true, NoOne, false},
		{"another process", 8, "npm publish", time.Second, true, NoOne, false},
		{"another command", 7, "npm publish --tag x", time.Second, true, NoOne, false},
		{"session without a prompt", 7, "npm publish", time.Second, false, NoOne, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ck := &clock{now: t0, key: t0.Add(-time.Hour)}
			b := newBroker(ck, 0, c.prompt)
			if got := b.Pose(q, 7); got != c.prompt {
				t.Fatalf("Pose = %v, want %v", got, c.prompt)
			}
			ck.key, ck.now = t0.Add(c.key), t0.Add(2*time.Second)
			run := q
			run.Command = c.cmd
			a := b.Decide(context.Background(), run, c.pid, nil)
			if a.How != c.want || a.Yes() != c.wantYes {
				t.Fatalf("Decide = %+v, want %s yes=%v", a, c.want, c.wantYes)
			}
			if c.wantYes {
				// Once a pose: the same command again is a new question.
				if a := b.Decide(context.Background(), run, c.pid, nil); a.Yes() {
					t.Errorf("a posed question answered twice: %+v", a)
				}
			}
		})
	}
}

// TestPosedTwice: a command the agent asks about twice (two calls of
// one reply) runs twice after the person's keys, and not a third time.
func TestPosedTwice(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ck := &clock{now: t0}
	b := newBroker(ck, 0, true)
	b.Pose(q, 7)
	ck.now = t0.Add(time.Second)
	b.Pose(q, 7)
	ck.key, ck.now = t0.Add(2*time.Second), t0.Add(3*time.Second)
	for i, want := range []bool{true, true, false} {
		if a := b.Decide(context.Background(), q, 7, nil); a.Yes() != want {
			t.Errorf("run %d: %+v, want yes=%v", i+1, a, want)
		}
	}
}

// TestApprove: a waiting command gets the approver's answer; "yes for
// the session" answers the same rule and shape later, not another shape;
// no answer within the wait, or the command's end, refuses.
func TestApprove(t *testing.T) {
	ck := &clock{now: time.Now()}
	b := newBroker(ck, time.Minute, false)
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
	if b.Pose(q, 2) {
		t.Errorf("a granted question is posed in the prompt")
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
	short := newBroker(ck, time.Millisecond, false)
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
	b := newBroker(ck, time.Minute, false)
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
		if b.Pose(other, 1) != false { // no prompt in this broker: Pose says false either way
			t.Fatalf("pose %q", other.Command)
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

// TestPosedShape: a question posed in the agent's prompt for `bash
// x.sh` showing one shape does not answer the same command when the
// script now holds another shape (issue #26, finding 5).
func TestPosedShape(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	posedQ := Question{Rule: "pkg.publish", Command: "bash x.sh", Shape: "npm publish"}
	for _, c := range []struct {
		shape string
		yes   bool
	}{{"npm publish", true}, {"npm publish --tag evil", false}} {
		ck := &clock{now: t0}
		b := newBroker(ck, 0, true)
		b.Pose(posedQ, 7)
		ck.key, ck.now = t0.Add(time.Second), t0.Add(2*time.Second)
		run := posedQ
		run.Shape = c.shape
		if a := b.Decide(context.Background(), run, 7, nil); a.Yes() != c.yes {
			t.Errorf("shape %q: %+v, want yes=%v", c.shape, a, c.yes)
		}
	}
}
