// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package term

// IsAgent is false: the agent's questions are posed only in a Linux
// ring, where the launcher can tell the agent from the processes it
// started (docs/validator.md §8.2).
func IsAgent(int) bool { return false }
