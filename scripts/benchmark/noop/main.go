// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Command noop does nothing. The benchmark times it as the floor of any
// shim written in Go: the cost of starting one more Go process.
package main

func main() {}
