// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build race

package validator

// raceEnabled disables timing assertions: the race detector slows the
// validator down several times.
const raceEnabled = true
