// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build !linux

package launch

import "github.com/lite-sandbox/lite-sandbox/launch/ring"

// writeJournal records nothing: there is no ring on this platform.
func writeJournal(string, ring.Guards) (func(), error) { return func() {}, nil }

// ReplayJournals has nothing to replay on this platform.
func ReplayJournals() []string { return nil }
