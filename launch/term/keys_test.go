// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"fmt"
	"strings"
	"testing"
)

// Flush ends the input read so far: a lone ESC was the Esc key, a no;
// an unfinished sequence is dropped.
func (p *keyParser) Flush() Answer {
	st := p.st
	*p = keyParser{}
	if st == esc {
		return KeyNo
	}
	return NoKey
}

// feedAll feeds in split at the given cut points (reads of the terminal
// end anywhere) and returns the first answer, flushing at the end.
func feedAll(in string, cuts ...int) Answer {
	var p keyParser
	prev := 0
	for _, c := range append(cuts, len(in)) {
		if c < prev || c > len(in) {
			continue
		}
		if a := p.Feed([]byte(in[prev:c])); a != NoKey {
			return a
		}
		prev = c
	}
	return p.Flush()
}

// Escape class 62: a terminal's replies and reports never answer the
// confirm line; a person's y does, any other key (Esc, Alt-y, a
// paste) is a no.
func TestKeyParser(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Answer
	}{
		{"y", "y", KeyYes},
		{"Y", "Y", KeyYes},
		{"n", "n", KeyNo},
		{"enter", "\r", KeyNo},
		{"ctrl-c", "\x03", KeyNo},
		{"space", " ", KeyNo},
		{"esc alone", "\x1b", KeyNo},
		{"esc esc", "\x1b\x1b", KeyNo},
		{"alt-y", "\x1by", KeyNo},
		{"utf-8 key", "é", KeyNo},
		{"nothing", "", NoKey},
		{"cpr", "\x1b[24;80R", NoKey},
		{"cpr then y", "\x1b[24;80Ry", KeyYes},
		{"da1", "\x1b[?1;2c", NoKey},
		{"da2", "\x1b[>0;95;0c", NoKey},
		{"dsr ok", "\x1b[0n", NoKey},
		{"decrpm ends in y", "\x1b[?2004;1$y", NoKey},
		{"decrpm then y", "\x1b[?2004;1$yy", KeyYes},
		{"osc reply bel", "\x1b]11;rgb:0000/0000/0000\x07", NoKey},
		{"osc reply st", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\", NoKey},
		{"osc holding y", "\x1b]l yyy \x1b\\", NoKey},
		{"osc holding y then n", "\x1b]l yyy \x1b\\n", KeyNo},
		{"dcs reply", "\x1bP1$r0;1m\x1b\\", NoKey},
		{"dcs with y", "\x1bP>|tmux yes\x1b\\", NoKey},
		{"apc", "\x1b_Gi=1;OK\x1b\\", NoKey},
		{"focus in", "\x1b[I", NoKey},
		{"focus out", "\x1b[O", NoKey},
		{"sgr mouse", "\x1b[<0;89;89M\x1b[<0;89;89m", NoKey},
		{"urxvt mouse", "\x1b[32;121;121M", NoKey},
		{"x10 mouse y coords", "\x1b[M yy", NoKey},
		{"x10 mouse then y", "\x1b[M yyy", KeyYes},
		{"x10 utf-8 coords", "\x1b[M \xc4\x80y", NoKey},
		{"x10 raw lead-like coord", "\x1b[M \xc5y", NoKey},
		{"x10 raw lead-like coord then y", "\x1b[M \xc5yy", KeyYes},
		{"kitty key flags", "\x1b[?1u", NoKey},
		{"window report", "\x1b[8;24;80t", NoKey},
		{"8-bit cpr", "\x9b24;80R", NoKey},
		{"8-bit osc", "\x9d11;rgb:0/0/0\x9c", NoKey},
		{"8-bit osc then y", "\x9d11;y\x9cy", NoKey},
		{"osc with 0x9c in utf-8", "\x1b]l\xc4\x9cy\x1b\\", NoKey},
		{"arrow", "\x1b[A", NoKey},
		{"ss3 arrow", "\x1bOA", NoKey},
		{"ss3 y is not y", "\x1bOy", NoKey},
		{"charset", "\x1b(B", NoKey},
		{"can aborts", "\x1b[12\x18", NoKey},
		{"esc aborts string, new csi", "\x1b]0;y\x1b[6n", NoKey},
		{"paste", "\x1b[200~y\x1b[201~", KeyNo},
		{"paste with forged end", "\x1b[200~\x1b[201~y", KeyNo},
		{"not a paste", "\x1b[2000~y", KeyYes},
		{"control inside csi", "\x1b[1\ry", KeyNo},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := feedAll(c.in); got != c.want {
				t.Errorf("%q: %v, want %v", c.in, got, c.want)
			}
			// The same input split at every point gives the same answer,
			// except that a lone ESC at a cut waits for more input.
			for i := 1; i < len(c.in); i++ {
				if got := feedAll(c.in, i); got != c.want && !(c.in[i-1] == 0x1b) {
					t.Errorf("%q cut at %d: %v, want %v", c.in, i, got, c.want)
				}
			}
		})
	}
}

// replies are what a terminal sends on its own, built from fuzz bytes:
// replies to requests the rings can write (CPR, DA, DSR, DECRPM,
// window, OSC and DCS replies), and reports (focus, mouse in every
// encoding), with arbitrary parameters and string content.
func reply(kind byte, a, b byte, s string) string {
	s = strings.Map(func(r rune) rune {
		if r == 0x1b || r == 0x07 || r == 0x18 || r == 0x1a {
			return '.'
		}
		return r
	}, s)
	switch kind % 14 {
	case 0:
		return fmt.Sprintf("\x1b[%d;%dR", a, b)
	case 1:
		return fmt.Sprintf("\x1b[?%d;%dc", a, b)
	case 2:
		return fmt.Sprintf("\x1b[>%d;%d;0c", a, b)
	case 3:
		return fmt.Sprintf("\x1b[%dn", a)
	case 4:
		return fmt.Sprintf("\x1b[?%d;%d$y", a, b)
	case 5:
		return fmt.Sprintf("\x1b]%d;%s\x07", a, s)
	case 6:
		return fmt.Sprintf("\x1b]%d;%s\x1b\\", a, s)
	case 7:
		return fmt.Sprintf("\x1bP%d$r%s\x1b\\", a, s)
	case 8:
		return "\x1b[I"
	case 9:
		return "\x1b[O"
	case 10:
		return string([]byte{0x1b, '[', 'M', a, b, a ^ b})
	case 11:
		return fmt.Sprintf("\x1b[<%d;%d;%dM", a, b, a)
	case 12:
		return fmt.Sprintf("\x9b%d;%dR", a, b)
	default:
		return fmt.Sprintf("\x1b[%d;%d;%dt", a, b, a)
	}
}

// FuzzKeyParserReplies: no sequence of terminal replies and reports,
// read in any pieces, is a yes; a y typed after them is (the parser is
// never left stuck inside them).
func FuzzKeyParserReplies(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, "yes", uint8(3))
	f.Add([]byte{10, 'y', 'y', 10, 0xc5, 'y'}, "y\x1b\\y", uint8(1))
	f.Fuzz(func(t *testing.T, spec []byte, s string, cut uint8) {
		var in strings.Builder
		for i := 0; i+2 < len(spec); i += 3 {
			in.WriteString(reply(spec[i], spec[i+1], spec[i+2], s))
		}
		replies := in.String()
		var p keyParser
		step := int(cut%7) + 1
		no := false
		for i := 0; i < len(replies) && !no; i += step {
			switch p.Feed([]byte(replies[i:min(i+step, len(replies))])) {
			case KeyYes:
				t.Fatalf("replies %q gave a yes", replies)
			case KeyNo:
				// A raw mouse coordinate that looks like a UTF-8 lead
				// byte may desynchronise the skip: that voids (a no),
				// never a yes.
				no = true
			}
		}
		if no {
			return
		}
		if a := p.Feed([]byte("y")); a != KeyYes {
			t.Fatalf("y after replies %q gave %v", replies, a)
		}
	})
}
