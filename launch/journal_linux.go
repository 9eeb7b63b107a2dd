// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

package launch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-sandbox/lite-sandbox/launch/ring"
)

// The restore journal (escape class 53): before the ring starts,
// launch records in the runtime root (never visible in the ring) what
// it will restore after the session, with its own pid; a clean end
// removes it after the restore. A launcher that died anywhere (out of
// memory in a copy-back, SIGKILL) leaves it, and the next launch or
// doctor replays it once its owner is gone (docs/ring.md "The agent's
// state").

const journalPrefix = "journal-"

type journal struct {
	Owner  string          `json:"owner"`
	Guards json.RawMessage `json:"guards"`
}

// writeJournal records g for the session dir, atomically; the returned
// func removes it. Nothing to restore writes nothing.
func writeJournal(dir string, g ring.Guards) (func(), error) {
	if len(g) == 0 {
		return func() {}, nil
	}
	gb, err := g.Journal()
	if err != nil {
		return nil, fmt.Errorf("launch: restore journal: %w", err)
	}
	b, err := json.Marshal(journal{Owner: strings.TrimSpace(string(ownerRecord())), Guards: gb})
	if err != nil {
		return nil, fmt.Errorf("launch: restore journal: %w", err)
	}
	p := filepath.Join(filepath.Dir(dir), journalPrefix+filepath.Base(dir)+".json")
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return nil, fmt.Errorf("launch: restore journal: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("launch: restore journal: %w", err)
	}
	return func() { os.Remove(p) }, nil
}

// ReplayJournals restores what the journals in the runtime root record
// whose launcher is gone, removes them, and returns one line per file
// it restored. `launch` and `doctor` call it.
func ReplayJournals() []string { return replayJournals(RuntimeRoot()) }

func replayJournals(root string) []string {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var lines []string
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(n, journalPrefix) || !strings.HasSuffix(n, ".json") {
			continue
		}
		p := filepath.Join(root, n)
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var j journal
		if err := json.Unmarshal(b, &j); err != nil {
			lines = append(lines, fmt.Sprintf("could not read the restore journal %s: %v", p, err))
			continue
		}
		if ownerAlive(bytes.TrimSpace([]byte(j.Owner))) {
			continue // a live session's
		}
		g, err := ring.ParseJournal(j.Guards)
		if err != nil {
			lines = append(lines, err.Error())
			continue
		}
		for _, l := range g.Restore() {
			lines = append(lines, l+" (after a launcher that ended before its restore)")
		}
		os.Remove(p)
	}
	return lines
}
