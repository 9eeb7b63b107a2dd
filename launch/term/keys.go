// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package term

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Answer is what the person's input says to the launcher's confirm line
// (docs/validator.md §8.2).
type Answer int

// The answers a key gives.
const (
	// NoKey: nothing a person typed yet (only terminal replies and
	// reports, or an escape sequence not yet complete).
	NoKey Answer = iota
	// KeyYes: the person typed y or Y.
	KeyYes
	// KeyNo: any other key, Esc, a paste: the question is void.
	KeyNo
)

// keyState is where the parser is in the input.
type keyState int

const (
	ground   keyState = iota
	esc               // after ESC
	escInter          // ESC then intermediates (ESC ( B and the like)
	csi               // ESC [ or C1 CSI: parameters, intermediates
	csiMouse          // ESC [ M: an X10 mouse report, three characters follow
	str               // OSC, DCS, SOS, PM, APC: up to ST or (OSC) BEL
	strEsc            // ESC inside a string: ST or a new sequence
)

// keyParser reads the launcher's terminal input while the confirm line
// is up and finds the first key a person typed, skipping everything the
// terminal sends on its own: replies to what the rings wrote before the
// agent's output was held (cursor position, device attributes, status,
// mode reports, OSC and DCS replies) and reports (focus, mouse in every
// encoding). Every escape sequence counts as nothing, so a reply can
// never be a yes; only a plain y or Y outside any sequence is one. A
// paste is a no: its content is not a key a person typed for this
// question (and a pasted end marker must not let the rest through).
// Zero value ready; not safe for concurrent use.
type keyParser struct {
	st    keyState
	csiN  int  // bytes of parameters and intermediates in a CSI so far
	paste bool // the CSI so far reads 200 (bracketed paste start)
	left  int  // characters of a mouse report still to skip
	lead  bool // the last byte of a mouse report was a UTF-8 lead byte
}

// Feed reads b and returns the first answer in it (NoKey if none yet).
// Once an answer is given the rest of b does not matter.
func (p *keyParser) Feed(b []byte) Answer {
	for _, c := range b {
		if a := p.byte(c); a != NoKey {
			return a
		}
	}
	return NoKey
}

// C0 and C1 bytes the parser acts on.
const (
	bEsc = 0x1b
	bCan = 0x18 // cancels a sequence
	bSub = 0x1a // cancels a sequence
	bBel = 0x07 // ends an OSC (xterm)
)

func (p *keyParser) byte(c byte) Answer {
	switch p.st {
	case ground:
		return p.groundByte(c)
	case esc:
		return p.escByte(c)
	case escInter:
		if c >= 0x30 && c <= 0x7e {
			p.st = ground
		} else if c < 0x20 || c > 0x2f {
			return p.abort(c)
		}
	case csi:
		return p.csiByte(c)
	case csiMouse:
		return p.mouseByte(c)
	case str:
		switch c {
		case bEsc:
			p.st = strEsc
		case bBel, bCan, bSub:
			// Not the C1 ST (0x9c): in UTF-8 it is also a continuation
			// byte, and a string the ring chose (a title) may hold it.
			p.st = ground
		}
	case strEsc:
		if c == '\\' {
			p.st = ground
			return NoKey
		}
		p.st = esc // ESC ends the string and starts a sequence
		return p.escByte(c)
	}
	return NoKey
}

// abort handles a byte that cannot continue the sequence: CAN and SUB
// cancel it, ESC starts another, anything else is read afresh.
func (p *keyParser) abort(c byte) Answer {
	p.st = ground
	if c == bCan || c == bSub {
		return NoKey
	}
	return p.groundByte(c)
}

func (p *keyParser) groundByte(c byte) Answer {
	switch c {
	case 'y', 'Y':
		return KeyYes
	case bEsc:
		p.st = esc
		return NoKey
	case 0x9b: // C1 CSI (8-bit controls, S8C1T)
		p.st, p.csiN, p.paste = csi, 0, false
		return NoKey
	case 0x90, 0x98, 0x9d, 0x9e, 0x9f: // C1 DCS, SOS, OSC, PM, APC
		p.st = str
		return NoKey
	}
	if c >= 0x80 && c < 0xa0 {
		return NoKey // other C1 controls (SS3 and the like): not keys
	}
	return KeyNo
}

func (p *keyParser) escByte(c byte) Answer {
	switch {
	case c == '[':
		p.st, p.csiN, p.paste = csi, 0, false
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		p.st = str
	case c == bEsc:
		// ESC ESC: the first was the Esc key.
		return KeyNo
	case c == bCan || c == bSub:
		p.st = ground
	case c >= 0x20 && c <= 0x2f:
		p.st = escInter
	case c >= 0x30 && c <= 0x7e:
		// ESC O x (SS3 keys), ESC x (Alt-x): a key of the person's, but
		// never y: an Alt-y is not a yes.
		if c == 'O' {
			p.st = escInter // SS3: one more byte, the key
			return NoKey
		}
		p.st = ground
		return KeyNo
	default:
		// ESC then a control or a high byte: the Esc key, then that.
		p.st = ground
		return KeyNo
	}
	return NoKey
}

func (p *keyParser) csiByte(c byte) Answer {
	switch {
	case c >= 0x30 && c <= 0x3f: // parameters
		p.paste = (p.csiN == 0 && c == '2') || (p.paste && ((p.csiN == 1 && c == '0') || (p.csiN == 2 && c == '0')))
		p.csiN++
	case c >= 0x20 && c <= 0x2f: // intermediates
		p.paste = false
		p.csiN++
	case c >= 0x40 && c <= 0x7e: // final
		switch {
		case c == 'M' && p.csiN == 0:
			p.st, p.left, p.lead = csiMouse, 3, false
		case c == '~' && p.paste && p.csiN == 3:
			// A bracketed paste: only the person pastes, and a paste is
			// no answer to the question (its end marker is not looked
			// for, so pasted text holding one cannot let a y through).
			p.st = ground
			return KeyNo
		default:
			p.st = ground
		}
	default:
		return p.abort(c)
	}
	return NoKey
}

// mouseByte skips the three characters of an X10 mouse report: bytes,
// or (mode 1005) UTF-8 characters, whose continuation bytes belong to
// the character before. A raw coordinate that looks like a lead byte
// may take the next byte with it; the worst that does is swallow a
// later key, never let a report's byte through as a y
// (docs/validator.md §8.2).
func (p *keyParser) mouseByte(c byte) Answer {
	if p.lead && c >= 0x80 && c < 0xc0 {
		return NoKey // a continuation of the character before
	}
	p.lead = false
	if p.left == 0 {
		p.st = ground
		return p.groundByte(c)
	}
	p.left--
	p.lead = c >= 0xc0
	if p.left == 0 && !p.lead {
		p.st = ground
	}
	return NoKey
}

// Visible is s as the confirm line shows it: every control character
// (C0, DEL, C1), every invisible formatting or bidi control and every
// byte that is not UTF-8 written as an escape, so that the person sees
// the command's whole text and the text cannot move the cursor, hide
// itself or reorder what is shown.
func Visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "\\x%02x", r)
		case (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2060 && r <= 0x2069) || r == 0xfeff || r == 0x061c:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// wrap cuts s into rows of at most width cells, counting every
// non-ASCII character as two (a wide one takes two; a narrow one only
// makes the row shorter).
func wrap(s string, width int) []string {
	width = max(width-1, 10) // the last column is left free: no autowrap at the edge
	var rows []string
	var row strings.Builder
	cells := 0
	for _, r := range s {
		w := 1
		if r >= 0x80 {
			w = 2
		}
		if cells+w > width {
			rows = append(rows, row.String())
			row.Reset()
			cells = 0
		}
		row.WriteRune(r)
		cells += w
	}
	return append(rows, row.String())
}
