// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"slices"
	"strings"
)

// optSpec describes the options of a command, getopt style.
type optSpec struct {
	vals     string   // short options that take a value (attached or next)
	optVals  string   // short options whose value can only be attached (-e[EOF])
	longVals []string // long options that take a value (--opt VALUE or --opt=VALUE)
}

// opt is one parsed option.
type opt struct {
	name   string // "-C" or "--chdir"
	val    arg
	hasVal bool
}

// parseOpts parses the options in front of args and returns them with the
// index of the first operand. It stops at "--" (skipped), "-" and the first
// operand, as getopt with "+" does. Unknown options take no value. A
// dynamic word that starts with "-" counts as an option without a value.
func parseOpts(args []arg, spec optSpec) ([]opt, int) {
	var opts []opt
	i := 0
	for i < len(args) {
		a := args[i]
		if a.dyn {
			if strings.HasPrefix(a.prefix, "-") {
				opts = append(opts, opt{name: a.prefix})
				i++
				continue
			}
			break
		}
		s := a.val
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' {
			break
		}
		i++
		if strings.HasPrefix(s, "--") {
			name, val, has := strings.Cut(s, "=")
			switch {
			case has:
				opts = append(opts, opt{name: name, val: arg{val: val, word: a.word}, hasVal: true})
			case slices.Contains(spec.longVals, name) && i < len(args):
				opts = append(opts, opt{name: name, val: args[i], hasVal: true})
				i++
			default:
				opts = append(opts, opt{name: name})
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			ch := s[j]
			name := "-" + string(ch)
			if strings.IndexByte(spec.vals, ch) >= 0 {
				switch {
				case j+1 < len(s):
					opts = append(opts, opt{name: name, val: arg{val: s[j+1:], word: a.word}, hasVal: true})
				case i < len(args):
					opts = append(opts, opt{name: name, val: args[i], hasVal: true})
					i++
				default:
					opts = append(opts, opt{name: name})
				}
				break
			}
			if strings.IndexByte(spec.optVals, ch) >= 0 {
				opts = append(opts, opt{name: name, val: arg{val: s[j+1:], word: a.word}, hasVal: j+1 < len(s)})
				break
			}
			opts = append(opts, opt{name: name})
		}
	}
	return opts, i
}
