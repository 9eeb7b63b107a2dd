// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/shims/policy"
	"github.com/lite-sandbox/lite-sandbox/shims/validator"
)

func TestExamplesCheckedOncePerPolicy(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	env := validator.Env{Workspace: "/w", Home: "/h", Cwd: "/w"}
	p := policy.Default()
	stamp := examplesStamp(p)
	if stamp == "" {
		t.Fatal("no stamp path")
	}
	if _, err := newValidator(p, env); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("no stamp after passing examples: %v", err)
	}

	// A rule whose example fails is refused every time, and leaves no
	// stamp; a changed policy has a stamp of its own.
	bad := policy.Default()
	bad.Rules = append(bad.Rules, policy.Rule{ID: "t.bad", Decision: "deny", Command: "frob",
		Reason: "r", Hint: "h", Match: []string{"other"}})
	if examplesStamp(bad) == stamp {
		t.Fatal("a different policy has the same stamp")
	}
	for range 2 {
		if _, err := newValidator(bad, env); err == nil {
			t.Fatal("a failing example was accepted")
		}
	}
	if _, err := os.Stat(examplesStamp(bad)); err == nil {
		t.Fatal("a failing policy got a stamp")
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(stamp), "*")); len(m) != 1 {
		t.Fatalf("stamps = %v, want one", m)
	}
}
