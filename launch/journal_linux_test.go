// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-sandbox/lite-sandbox/agents"
	"github.com/lite-sandbox/lite-sandbox/launch/ring"
)

// TestJournalReplay (escape class 53): a journal whose launcher is alive
// (this process) is left alone; one whose launcher is gone is replayed
// (the file restored but for its data keys) and removed; the clean end's
// forget removes it without a replay.
func TestJournalReplay(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	conf := filepath.Join(t.TempDir(), ".claude.json")
	os.WriteFile(conf, []byte(`{"n": 1}`), 0o600)
	g := ring.SnapshotGuards(ring.Input{State: &agents.State{Guard: []agents.GuardedFile{{Path: conf, Data: [][]string{{"n"}}}}}})
	forget, err := writeJournal(filepath.Join(root, "s-1"), g)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(conf, []byte(`{"n": 2, "mcpServers": {"evil": {}}}`), 0o600)
	if l := replayJournals(root); l != nil {
		t.Errorf("a live launcher's journal was replayed: %q", l)
	}
	p := filepath.Join(root, "journal-s-1.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// The launcher is gone: pid 2^22+1 is above any pid_max's default.
	os.WriteFile(p, []byte(strings.Replace(string(b), `"owner":"`, `"owner":"4194305 0 `, 1)), 0o600)
	l := replayJournals(root)
	if len(l) != 1 || !strings.Contains(l[0], "mcpServers") {
		t.Errorf("replay lines %q", l)
	}
	if b, _ := os.ReadFile(conf); strings.Contains(string(b), "evil") || !strings.Contains(string(b), `"n": 2`) {
		t.Errorf("after the replay: %s", b)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("the replayed journal is left")
	}
	forget()
	forget, _ = writeJournal(filepath.Join(root, "s-2"), g)
	forget()
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("left in the runtime root: %v", ents)
	}
}
