// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package validator

import (
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
)

// BenchmarkNew measures what every shim invocation pays: compiling the
// policy and running all rule examples.
func BenchmarkNew(b *testing.B) {
	p := policy.Default()
	for b.Loop() {
		if _, err := New(p, ruleExampleEnv()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck measures a typical agent command.
func BenchmarkCheck(b *testing.B) {
	v := defaultValidator(b)
	cmd := `cd src && go test ./... 2>&1 | tail -n 50 && git add -A && git commit -m "fix: x" && git push origin HEAD:refs/heads/topic`
	for b.Loop() {
		if r := v.Check(cmd); !r.Allowed() {
			b.Fatal(r)
		}
	}
}
