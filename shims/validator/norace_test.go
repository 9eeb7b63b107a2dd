// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !race

package validator

// raceEnabled is false in normal test runs; see race_test.go.
const raceEnabled = false
