// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package agents

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"time"
)

// Resumer is implemented by agents that can continue a session later.
// The agents print their own resume hint on exit (`claude --resume ID`),
// which, followed as printed, resumes without the sandbox; the launcher
// prints the routed way after it (`lite-sandbox launch claude --
// --resume ID`).
type Resumer interface {
	// ResumeArgs returns the agent's own arguments that resume the
	// session that ran in s and started at since, found in the agent's
	// state files; ok is false when there is nothing to resume.
	ResumeArgs(s Session, since time.Time) (args []string, ok bool)
}

// NewestFile returns the newest regular file among the matches of the
// glob patterns that was modified at or after since and, when needle is
// not empty, holds it on some line; "" when none does.
func NewestFile(since time.Time, needle string, patterns ...string) string {
	best, bestT := "", time.Time{}
	for _, pat := range patterns {
		ms, _ := filepath.Glob(pat)
		for _, m := range ms {
			fi, err := os.Stat(m)
			if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since) || !fi.ModTime().After(bestT) {
				continue
			}
			if needle != "" && !fileHolds(m, needle) {
				continue
			}
			best, bestT = m, fi.ModTime()
		}
	}
	return best
}

func fileHolds(name, needle string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte(needle)) {
			return true
		}
	}
	return false
}
