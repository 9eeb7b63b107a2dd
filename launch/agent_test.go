// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
)

// TestApplyEnv: inherited routing variables are replaced, the plan's
// Unset names removed, and its Env set last.
func TestApplyEnv(t *testing.T) {
	t.Parallel()
	base := []string{"HOME=/h", "SHELL=/bin/zsh", "LITE_SANDBOX_SESSION=/old", "CRUSH_CLIENT_SERVER=true", "CLAUDE_CODE_SHELL=/bin/bash", "PATH=/bin"}
	routing := routingEnv(agents.Session{Dir: "/s", Shim: "/s/bin/bash"}, "claude", "auto", true)
	got := applyEnv(base, routing, agents.Plan{
		Env:   []string{"CLAUDE_CODE_SHELL=/s/bin/bash"},
		Unset: []string{"CRUSH_CLIENT_SERVER"},
	})
	want := []string{"HOME=/h", "PATH=/bin", "SHELL=/s/bin/bash", "LITE_SANDBOX_SHIM=/s/bin/bash", "LITE_SANDBOX_SESSION=/s", "CLAUDE_CODE_SHELL=/s/bin/bash"}
	if !slices.Equal(got, want) {
		t.Fatalf("env\n got %q\nwant %q", got, want)
	}
}

// TestWriteFiles: files and links are written below the session
// directory, private; a path outside it is refused.
func TestWriteFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	err := writeFiles(dir, []agents.File{
		{Path: filepath.Join(dir, "a", "settings.json"), Content: []byte("{}")},
		{Path: filepath.Join(dir, "a", "auth.json"), Link: "/home/u/.pi/agent/auth.json"},
	})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "a", "settings.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings.json: %v %v", fi, err)
	}
	if l, err := os.Readlink(filepath.Join(dir, "a", "auth.json")); err != nil || l != "/home/u/.pi/agent/auth.json" {
		t.Fatalf("link %q %v", l, err)
	}
	for _, p := range []string{filepath.Join(dir, "..", "x"), dir, "/etc/x"} {
		if err := writeFiles(dir, []agents.File{{Path: p}}); err == nil || !strings.Contains(err.Error(), "outside the session directory") {
			t.Errorf("%s: %v", p, err)
		}
	}
}
