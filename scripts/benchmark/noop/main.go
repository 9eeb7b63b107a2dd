// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command noop does nothing. The benchmark times it as the floor of any
// shim written in Go: the cost of starting one more Go process. With the
// single argument -stamp it prints the time it started (Unix
// nanoseconds), so that the benchmark can time a launcher up to the
// moment it execs its program.
package main

import (
	"os"
	"strconv"
	"time"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-stamp" {
		os.Stdout.WriteString(strconv.FormatInt(time.Now().UnixNano(), 10) + "\n")
	}
}
