// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package sandbox

// Probe is [Detect]: only Linux has a probe worth caching.
func Probe() (Backend, error) { return Detect() }

// Reprobe is [Detect].
func Reprobe() (Backend, error) { return Detect() }
