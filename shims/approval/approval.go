// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package approval is how a person answers a command that an `ask` rule
// holds back (docs/validator.md §8). The [Broker] lives in the
// launcher, beside the session's judge, outside both rings: the agent's
// own hook can pose a question there (`lite-sandbox hook ask`), but only
// the person answers it: with y on a confirm line the launcher draws
// on the terminal it owns, while the agent's output is held, or with
// `lite-sandbox approve` on a socket that neither ring shows
// (serve_unix.go). Nothing the model or a sandboxed command
// reaches can say yes: an approved command still runs in the command
// sandbox like any other, and approval never widens the sandbox.
package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/esc"
)

// DirName is the directory of the approval sockets in the sessions'
// runtime root: a sibling of the session directories, never bound into
// either ring (each ring shows only its own session directory), mode
// 0700. One socket a session, named after it.
const DirName = "approve"

// SocketPath is session's approval socket under the runtime root.
func SocketPath(root, session string) string {
	return filepath.Join(root, DirName, session+".sock")
}

// Question is one `ask` rule's question about one command.
type Question struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
	Hint    string `json:"hint,omitempty"`
	// Command is the command as it was judged (the model's text); Shape
	// the canonical text of the simple command the rule matched, which
	// "yes for this session" grants.
	Command string    `json:"command"`
	Shape   string    `json:"shape"`
	Cwd     string    `json:"cwd,omitempty"`
	Asked   time.Time `json:"asked"`
	// Findings are every ask rule's match on the line (Rule and Shape
	// then name them all): the person is asked about each, and "yes
	// for this session" grants each rule and shape alone. Empty: the
	// one of Rule and Shape.
	Findings []Finding `json:"findings,omitempty"`
}

// Finding is one rule and the shape of the simple command it matched.
type Finding struct {
	Rule   string `json:"rule"`
	Shape  string `json:"shape"`
	Reason string `json:"reason,omitempty"`
}

// grantKeys are the grants that together answer q: one per finding, so
// that a yes for one shape never covers another on the same line
// (issue #26, finding 4).
func grantKeys(q Question) []string {
	if len(q.Findings) == 0 {
		return []string{q.Rule + "\x00" + q.Shape}
	}
	keys := make([]string, len(q.Findings))
	for i, f := range q.Findings {
		keys[i] = f.Rule + "\x00" + f.Shape
	}
	return keys
}

// Reply is a person's answer.
type Reply string

// The replies.
const (
	Once       Reply = "once"    // yes, this command, this time
	ForSession Reply = "session" // yes, and to the same rule and command shape for the rest of the session
	No         Reply = "no"
)

// ParseReply reads a reply as `lite-sandbox approve` takes it.
func ParseReply(s string) (Reply, error) {
	switch Reply(s) {
	case Once, ForSession, No:
		return Reply(s), nil
	}
	return "", fmt.Errorf("unknown answer %q (want once, session or no)", s)
}

// How says where an answer came from.
type How string

// The ways a question ends.
const (
	ByConfirm How = "confirm" // the launcher's confirm line, answered with y or a no at the terminal
	ByApprove How = "approve" // lite-sandbox approve
	ByGrant   How = "grant"   // an earlier "yes for this session"
	Timeout   How = "timeout" // nobody answered in time
	NoOne     How = "none"    // nobody could be asked (no prompt, no wait)
	NotAgent  How = "refused" // posed by a process that is not the agent: not asked
)

// ConfirmedBy is who answers on the confirm line.
const ConfirmedBy = "the person at the terminal, on lite-sandbox's confirm line"

// Answer is how one question ended.
type Answer struct {
	Reply Reply // "" when nobody answered
	How   How
	// By says who answered ("uid 1000", "the person at the terminal").
	By string
	At time.Time
}

// Yes reports whether the command may run.
func (a Answer) Yes() bool { return a.Reply == Once || a.Reply == ForSession }

// Broker holds a session's questions, its "yes for this session" grants
// and the yeses given on the confirm line. It is safe for concurrent
// use.
type Broker struct {
	session string
	// wait bounds how long a command waits for `lite-sandbox approve`;
	// 0 refuses at once.
	wait time.Duration
	// prompt is set when the agent's hook can ask (the agent runs on
	// the launcher's pty, in the ring, and its adapter asks).
	prompt  bool
	confirm func(ctx context.Context, lines []string) (bool, error)
	isAgent func(pid int) bool
	now     func() time.Time

	mu      sync.Mutex
	pending map[string]*pending
	grants  map[string]bool
	yeses   map[string][]yes // a command the agent asks about twice is asked twice
}

type pending struct {
	q    Question
	done chan Answer // buffered 1
}

// yes is a person's yes on the confirm line, for the agent process
// pid, at a time; its command has not come yet.
type yes struct {
	pid int
	at  time.Time
}

// yesFor bounds how long a yes waits for its command: the agent runs
// it right after its hook's answer.
const yesFor = 2 * time.Minute

// ConfirmFor bounds how long the confirm line waits for the person;
// the agents' hooks wait a little longer (agents/claude, agents/pi).
const ConfirmFor = 4 * time.Minute

// Options configure a [Broker].
type Options struct {
	Session string
	Wait    time.Duration
	// Prompt says that the agent's hook asks. Confirm draws the
	// question on the launcher's terminal and reads the person's y or
	// no (term.Confirm); IsAgent tells the agent process from the other
	// processes of the ring (term.IsAgent). Without both nothing asks.
	Prompt  bool
	Confirm func(ctx context.Context, lines []string) (bool, error)
	IsAgent func(pid int) bool
}

// New returns a session's broker.
func New(o Options) *Broker {
	return &Broker{session: o.Session, wait: o.Wait, prompt: o.Prompt && o.Confirm != nil && o.IsAgent != nil,
		confirm: o.Confirm, isAgent: o.IsAgent, now: time.Now,
		pending: map[string]*pending{}, grants: map[string]bool{}, yeses: map[string][]yes{}}
}

// SetSession names the session the questions are of (known once its
// directory exists).
func (b *Broker) SetSession(id string) {
	b.mu.Lock()
	b.session = id
	b.mu.Unlock()
}

// Wait is how long a command waits for `lite-sandbox approve`.
func (b *Broker) Wait() time.Duration { return b.wait }

// Prompting reports whether the agent's hook asks on the confirm line.
func (b *Broker) Prompting() bool { return b.prompt }

// granted reports whether earlier grants cover every finding of q;
// b.mu is held.
func (b *Broker) granted(q Question) bool {
	for _, k := range grantKeys(q) {
		if !b.grants[k] {
			return false
		}
	}
	return true
}

// posedKey names a posed question by its rules, the command and the
// shapes the person was shown: a script that changed between the
// question and the command (bash x.sh) is another question.
func posedKey(q Question) string { return q.Rule + "\x00" + q.Command + "\x00" + q.Shape }

// Ask is the agent's hook before a tool call runs q's command: unless
// a grant answers it anyway, the person is asked on the launcher's
// confirm line. Only the agent process itself asks (pid, the parent of
// the hook's shim, must be the ring's agent): another process of the
// ring gets [NotAgent] and nobody sees its question. A yes is kept for
// the command that follows, from the same process with the same text
// (see [Broker.Decide]); a no, or no answer within [ConfirmFor] (or
// ctx's end), voids every yes kept for that text.
func (b *Broker) Ask(ctx context.Context, q Question, pid int) Answer {
	b.mu.Lock()
	granted, prompt := b.granted(q), b.prompt
	b.mu.Unlock()
	switch {
	case granted:
		return Answer{Reply: ForSession, How: ByGrant, By: "an earlier yes for this session", At: b.now()}
	case !prompt:
		return Answer{How: NoOne, At: b.now()}
	case !b.isAgent(pid):
		return Answer{How: NotAgent, By: fmt.Sprintf("pid %d, not the agent", pid), At: b.now()}
	}
	ctx, cancel := context.WithTimeout(ctx, ConfirmFor)
	defer cancel()
	said, err := b.confirm(ctx, confirmLines(q))
	now, key := b.now(), posedKey(q)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil || !said {
		delete(b.yeses, key)
		switch {
		case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
			return Answer{How: Timeout, At: now}
		case err != nil:
			return Answer{How: NoOne, At: now} // no terminal to ask on (the agent suspended)
		}
		return Answer{Reply: No, How: ByConfirm, By: ConfirmedBy, At: now}
	}
	b.yeses[key] = append(b.yeses[key], yes{pid: pid, at: now})
	return Answer{Reply: Once, How: ByConfirm, By: ConfirmedBy, At: now}
}

// confirmLines is q as the confirm line shows it: the rule and its
// reason, the command's whole text and where it runs, the keys.
func confirmLines(q Question) []string {
	lines := []string{"lite-sandbox: " + q.Rule + " asks a person: " + q.Reason}
	if q.Hint != "" {
		lines = append(lines, "  "+q.Hint)
	}
	lines = append(lines, "  run: "+q.Command)
	if q.Cwd != "" {
		lines = append(lines, "  in:  "+q.Cwd)
	}
	return append(lines, "  y: yes, run it once    any other key: no")
}

// Decide answers q, asked for a command of the agent process pid: a
// grant of this session, else a yes on the confirm line kept for the
// same command text and process ([Broker.Ask]; used once), else a
// person with `lite-sandbox approve`, for at most the session's wait. notify gets one line saying how to answer while it waits. ctx
// ending (the command's shim killed) ends the wait with no answer.
func (b *Broker) Decide(ctx context.Context, q Question, pid int, notify io.Writer) Answer {
	now := b.now()
	b.mu.Lock()
	if b.granted(q) {
		b.mu.Unlock()
		return Answer{Reply: ForSession, How: ByGrant, By: "an earlier yes for this session", At: now}
	}
	key := posedKey(q)
	for i, y := range b.yeses[key] {
		if y.pid == pid && pid > 0 && now.Sub(y.at) < yesFor {
			b.yeses[key] = append(b.yeses[key][:i:i], b.yeses[key][i+1:]...)
			if len(b.yeses[key]) == 0 {
				delete(b.yeses, key)
			}
			b.mu.Unlock()
			return Answer{Reply: Once, How: ByConfirm, By: ConfirmedBy, At: y.at}
		}
	}
	if b.wait <= 0 {
		b.mu.Unlock()
		return Answer{How: NoOne, At: now}
	}
	p := &pending{done: make(chan Answer, 1)}
	p.q = q
	p.q.ID, p.q.Session, p.q.Asked = newID(), b.session, now
	b.pending[p.q.ID] = p
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.pending, p.q.ID)
		b.mu.Unlock()
	}()
	if notify != nil {
		esc.Fprintf(notify, "lite-sandbox: %s needs a person's yes; waiting up to %s: lite-sandbox approve yes %s (or: no %s)\n",
			q.Rule, b.wait.Round(time.Second), p.q.ID, p.q.ID)
	}
	t := time.NewTimer(b.wait)
	defer t.Stop()
	select {
	case a := <-p.done:
		return a
	case <-t.C:
		return Answer{How: Timeout, At: b.now()}
	case <-ctx.Done():
		return Answer{How: Timeout, At: b.now()}
	}
}

// Pending lists the questions waiting for `lite-sandbox approve`,
// oldest first.
func (b *Broker) Pending() []Question {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Question, 0, len(b.pending))
	for _, p := range b.pending {
		out = append(out, p.q)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Asked.Before(out[j].Asked) })
	return out
}

// ErrUnknown is the answer to a question that is not (or no longer)
// pending.
var ErrUnknown = errors.New("no such question is waiting (answered, timed out, or its command ended)")

// Answer answers the pending question id with r, by who.
func (b *Broker) Answer(id string, r Reply, who string) error {
	if _, err := ParseReply(string(r)); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pending[id]
	if !ok {
		return fmt.Errorf("question %s: %w", id, ErrUnknown)
	}
	if r == ForSession {
		for _, k := range grantKeys(p.q) {
			b.grants[k] = true
		}
	}
	delete(b.pending, id)
	p.done <- Answer{Reply: r, How: ByApprove, By: who, At: b.now()}
	return nil
}

// newID is a short random question id.
func newID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b[:])
}
