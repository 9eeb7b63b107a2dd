// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build race

package launch_test

// raceEnabled: the race detector's runtime multiplies memory use, so
// the worker's RSS says nothing about production then.
const raceEnabled = true
