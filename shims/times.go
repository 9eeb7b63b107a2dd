// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package shims

import (
	"strconv"
	"strings"
	"time"

	"github.com/lite-sandbox/lite-sandbox/shims/forward"
)

// Times are the moments of one command on a session's path, taken where
// they happen, for the bench's phase split (docs/performance.md,
// "Phases"): the shim's main and its request sent (the shim puts them in
// [forward.EnvShimTimes]), the judge's receipt and decision, the worker's
// fork and reap of the command, the command's exit as the judge learns
// it, and the judge's answer to the shim (after the audit record).
type Times struct {
	ShimMain, Sent, Received, Judged, Started, Reaped, Exited, Answered time.Time
}

// shimTimes removes EnvShimTimes from env and parses it.
func shimTimes(env []string) (rest []string, main, sent time.Time) {
	rest = env[:0:0]
	for _, kv := range env {
		v, ok := strings.CutPrefix(kv, forward.EnvShimTimes+"=")
		if !ok {
			rest = append(rest, kv)
			continue
		}
		a, b, _ := strings.Cut(v, ",")
		if n, err := strconv.ParseInt(a, 10, 64); err == nil {
			main = time.Unix(0, n)
		}
		if n, err := strconv.ParseInt(b, 10, 64); err == nil {
			sent = time.Unix(0, n)
		}
	}
	return rest, main, sent
}
