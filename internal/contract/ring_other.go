// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package contract

// RingSession is "" where launch starts no agent ring.
func RingSession() string { return "" }
