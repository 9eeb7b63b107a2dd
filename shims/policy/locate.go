// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"strings"
)

// locate finds the line and column of the nth (default first) line that
// assigns key, so that errors found after decoding can still point into
// the file. It is a plain text scan: good enough for the keys of our
// schema, which are written one per line.
func locate(data []byte, key string, nth ...int) (line, col int) {
	want := 0
	if len(nth) > 0 {
		want = nth[0]
	}
	count := 0
	firstLine, firstCol := 0, 0
	for i, l := range bytes.Split(data, []byte("\n")) {
		s := string(l)
		trimmed := strings.TrimLeft(s, " \t")
		rest, ok := strings.CutPrefix(trimmed, key)
		if !ok {
			rest, ok = strings.CutPrefix(trimmed, `"`+key+`"`)
		}
		if !ok || !strings.HasPrefix(strings.TrimLeft(rest, " \t"), "=") {
			continue
		}
		c := len(s) - len(trimmed) + 1
		if firstLine == 0 {
			firstLine, firstCol = i+1, c
		}
		if count == want {
			return i + 1, c
		}
		count++
	}
	return firstLine, firstCol
}
