// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// current is the pty job of the launch in this process: the terminal
// the confirm line is drawn on, the agent's pty whose output it holds.
var current atomic.Pointer[ptyJob]

// confirmOne draws one confirm line at a time; a question that comes
// while one is up waits its turn (or its end).
var confirmOne = make(chan struct{}, 1)

// ErrNoTerminal: no launch of this process owns a terminal it can ask
// on now (none, or the agent is suspended and the shell has it).
var ErrNoTerminal = errors.New("no terminal to ask on")

// escQuiet is how long a lone ESC waits for the rest of a sequence
// before it counts as the Esc key (a no).
const escQuiet = 100 * time.Millisecond

// confirmReq is the confirm line up on the terminal: the input goes to
// its parser, not to the agent.
type confirmReq struct {
	p      keyParser
	answer chan Answer   // buffered 1
	esc    chan struct{} // the input ended inside an escape
}

// Confirm draws lines (the question, already in words) on the bottom
// rows of the terminal the launcher owns, while the agent's output is
// held, and reads the person's answer there: y is yes; any other key,
// Esc or a paste is no. The terminal's own replies and reports are
// skipped (keyParser), and nothing the rings write reaches the terminal
// while the line is up, so only a person's key answers
// (docs/validator.md §8.2). ctx ending withdraws the question (no
// answer, ctx's error). The agent is told to redraw afterwards.
func Confirm(ctx context.Context, lines []string) (bool, error) {
	j := current.Load()
	if j == nil {
		return false, ErrNoTerminal
	}
	select {
	case confirmOne <- struct{}{}:
		defer func() { <-confirmOne }()
	case <-ctx.Done():
		return false, ctx.Err()
	}
	j.outMu.Lock() // the agent's output waits (its pty's buffer fills, then it blocks)
	defer j.outMu.Unlock()
	c := &confirmReq{answer: make(chan Answer, 1), esc: make(chan struct{}, 1)}
	j.mu.Lock()
	if j.saved == nil || j.suspended {
		j.mu.Unlock()
		return false, ErrNoTerminal
	}
	j.confirm = c
	j.mu.Unlock()
	top, n, fits := drawConfirm(j.out, j.tty, lines)
	defer func() {
		j.mu.Lock()
		j.confirm = nil
		j.mu.Unlock()
		eraseConfirm(j.out, top, n)
		j.signalAgent(unix.SIGWINCH) // the agent redraws what the line covered
	}()
	if !fits {
		return false, errors.New("the question does not fit on the terminal")
	}
	for {
		select {
		case a := <-c.answer:
			return a == KeyYes, nil
		case <-ctx.Done():
			return false, ctx.Err()
		case <-c.esc:
			select {
			case a := <-c.answer:
				return a == KeyYes, nil
			case <-time.After(escQuiet):
			case <-ctx.Done():
				return false, ctx.Err()
			}
			j.mu.Lock()
			if c.p.st == esc {
				c.p = keyParser{}
				j.mu.Unlock()
				return false, nil // the Esc key
			}
			j.mu.Unlock()
		}
	}
}

// feedConfirm gives input to the confirm line, if one is up, and
// reports whether it took it.
func (j *ptyJob) feedConfirm(b []byte) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	c := j.confirm
	if c == nil {
		return false
	}
	if a := c.p.Feed(b); a != NoKey {
		j.confirm = nil
		c.answer <- a
	} else if c.p.st == esc {
		select {
		case c.esc <- struct{}{}:
		default:
		}
	}
	return true
}

// drawConfirm writes lines, made visible ([Visible]: control
// characters escaped) and wrapped to the terminal's width, on its
// bottom rows, and returns the first row and how many it took; fits is
// false when they do not fit (then one row says so). It first cancels
// any sequence the agent's output left unfinished (CAN, then ST), so
// that nothing written before the hold can swallow or restyle the line;
// the cursor and attributes are saved and restored (DECSC, DECRC), the
// character set is ASCII. Bracketed paste is turned on, so that a paste
// is seen as one (and is a no).
func drawConfirm(w io.Writer, tty interface{ Fd() uintptr }, lines []string) (top, n int, fits bool) {
	width, height := 80, 24
	if ws, err := unix.IoctlGetWinsize(int(tty.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 && ws.Row > 0 {
		width, height = int(ws.Col), int(ws.Row)
	}
	var rows []string
	for _, l := range lines {
		rows = append(rows, wrap(Visible(l), width)...)
	}
	fits = len(rows) < height
	if !fits {
		rows = wrap("lite-sandbox: a question too long for this terminal was refused", width)[:1]
	}
	top = height - len(rows) + 1
	var b strings.Builder
	b.WriteString("\x18\x1b\\\x1b7\x1b[?2004h\x0f\x1b(B")
	for i, r := range rows {
		fmt.Fprintf(&b, "\x1b[%d;1H\x1b[0m\x1b[7m\x1b[2K%s", top+i, r)
	}
	b.WriteString("\x1b[0m")
	w.Write([]byte(b.String()))
	return top, len(rows), fits
}

// eraseConfirm clears the rows the line took and restores the cursor.
func eraseConfirm(w io.Writer, top, n int) {
	var b strings.Builder
	b.WriteString("\x1b[0m")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\x1b[%d;1H\x1b[2K", top+i)
	}
	b.WriteString("\x1b8")
	w.Write([]byte(b.String()))
}
