// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

//go:build linux

package e2etest

import (
	"encoding/json"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestClaudeRingSavesState: Claude Code 2.1.197 saves ~/.claude.json in
// the ring. It locks with mkdir ~/.claude.json.lock and writes
// ~/.claude.json.tmp.PID.N beside the file, which a read-only home
// refuses (it then skipped the save); in the ring's scratch home both
// land in the scratch layer, the rename onto the bound file fails
// (EBUSY) and Claude writes the file in place. The user's own keys
// survive, the host home gets no new entry, ~/.bashrc is unchanged.
func TestClaudeRingSavesState(t *testing.T) {
	e := ringEnv(t)
	bashrc := filepath.Join(e.home, ".bashrc")
	if err := os.WriteFile(bashrc, []byte("# the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(e.home, ".claude.json")
	if err := os.WriteFile(conf, []byte(`{"numStartups": 7, "userKey": "kept"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&writeModel{})
	defer srv.Close()
	env := []string{"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=" + secretKey, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_MAX_RETRIES=0"}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	out, errs, code := e.launch("claude", env, "-p", "hello", "--dangerously-skip-permissions", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("~/.claude.json after the session is not JSON (%v): %q", err, b)
	}
	// Claude records its first start and a user id on every first run;
	// 2.1.197 in -p mode does not count startups.
	if doc["userKey"] != "kept" || doc["firstStartTime"] == nil || doc["userID"] == nil {
		t.Errorf("~/.claude.json was not saved by Claude in the ring (or lost a key): %s\nstderr:\n%s", b, errs)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "# the user's\n" {
		t.Errorf("~/.bashrc changed: %q", b)
	}
	ents, err := os.ReadDir(e.home)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ents {
		// .claude is made by launch before the ring (Claude's first run
		// would), .cache by lite-sandbox's own policy check cache, .local
		// by the launcher's audit log (checked below).
		if !slices.Contains([]string{".bashrc", ".claude.json", ".claude", ".cache", ".local"}, d.Name()) {
			t.Errorf("new entry in the host home: %s", d.Name())
		}
	}
	own := filepath.Join(e.home, ".local", "state", "lite-sandbox")
	filepath.WalkDir(filepath.Join(e.home, ".local"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(p, own+"/") {
			t.Errorf("new file in the host home: %s", p)
		}
		return nil
	})
}
