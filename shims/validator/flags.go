// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"path"
	"strings"
	"unicode/utf8"
)

// anyFlag reports whether one of specs is among the flags of s (the
// tokens before "--").
func anyFlag(specs []flagSpec, s *argScan) bool {
	for _, f := range specs {
		if flagPresent(f, s.args[:s.end]) {
			return true
		}
	}
	return false
}

// isCluster reports whether t is a cluster of short options such as -xfd.
func isCluster(t string) bool {
	if len(t) < 3 || t[0] != '-' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if !isAlnum(t[i]) {
			return false
		}
	}
	return true
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// flagPresent reports whether flag f appears among toks (the tokens before
// "--"). "--x=v" counts as "--x"; a short flag also counts inside a
// cluster; FLAG=GLOB also needs the flag's value to match.
func flagPresent(f flagSpec, toks []arg) bool {
	next := func(i int) (arg, bool) {
		if i+1 < len(toks) {
			return toks[i+1], true
		}
		return arg{}, false
	}
	for i, t := range toks {
		if t.dyn {
			continue
		}
		s := t.val
		if strings.HasPrefix(f.name, "--") {
			n, v, attached := strings.Cut(s, "=")
			if n != f.name {
				continue
			}
			if !f.hasVal {
				return true
			}
			if attached {
				if valueMatch(f.glob, arg{val: v}) {
					return true
				}
			} else if nv, ok := next(i); ok && valueMatch(f.glob, nv) {
				return true
			}
			continue
		}
		if s == f.name {
			if !f.hasVal {
				return true
			}
			if nv, ok := next(i); ok && valueMatch(f.glob, nv) {
				return true
			}
			continue
		}
		if len(f.name) != 2 || len(s) < 3 || s[0] != '-' || s[1] == '-' {
			continue // single-dash words such as -exec match only whole
		}
		letter := f.name[1]
		if !f.hasVal {
			if isCluster(s) && strings.IndexByte(s[1:], letter) >= 0 {
				return true
			}
			continue
		}
		// -cVALUE, -c=VALUE, or a cluster ending in the flag (-xc VALUE).
		for j := 1; j < len(s); j++ {
			if s[j] == letter {
				if rest := s[j+1:]; rest != "" {
					if valueMatch(f.glob, arg{val: strings.TrimPrefix(rest, "=")}) {
						return true
					}
				} else if nv, ok := next(i); ok && valueMatch(f.glob, nv) {
					return true
				}
				break
			}
			if !isAlnum(s[j]) {
				break
			}
		}
	}
	return false
}

// valueMatch matches an option value against a lower-cased glob. A
// dynamic value matches when its known leading text could start a
// matching value (fail closed: git -c "$cfg" status).
func valueMatch(glob string, v arg) bool {
	if !v.dyn {
		ok, _ := path.Match(glob, strings.ToLower(v.val))
		return ok
	}
	return couldMatch(glob, strings.ToLower(v.prefix))
}

// couldMatch reports whether some string that starts with prefix
// matches glob (a path.Match pattern): the glob is run over the prefix,
// and whatever remains of it can match the unknown rest.
func couldMatch(glob, prefix string) bool {
	for prefix != "" {
		if glob == "" {
			return false
		}
		switch glob[0] {
		case '*':
			return true // the star can absorb the rest of the prefix
		case '?':
			_, n := utf8.DecodeRuneInString(prefix)
			glob, prefix = glob[1:], prefix[n:]
		case '[':
			end := strings.IndexByte(glob[1:], ']')
			if end < 0 {
				return true // malformed: fail closed
			}
			class := glob[:end+2]
			r, n := utf8.DecodeRuneInString(prefix)
			if ok, err := path.Match(class, string(r)); !ok && err == nil {
				return false
			}
			glob, prefix = glob[end+2:], prefix[n:]
		case '\\':
			if len(glob) < 2 || glob[1] != prefix[0] {
				return false
			}
			glob, prefix = glob[2:], prefix[1:]
		default:
			if glob[0] != prefix[0] {
				return false
			}
			glob, prefix = glob[1:], prefix[1:]
		}
	}
	return true
}
